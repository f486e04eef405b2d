import { useI18nStore } from '@/i18n/i18n-store.ts';
import { readableDn } from '@/lib/dn.ts';

/**
 * A certificate subject or issuer as labelled lines (`Name 张三`, `Subject serial number 3f9a…`), never raw
 * `2.5.4.5=…` text; every screen that shows a certificate uses it.
 */
export function DnText({ dn, testId }: { dn: string; testId?: string }) {
  const locale = useI18nStore((s) => s.locale);
  const parts = readableDn(dn, locale);
  if (parts.length === 0) return <span>—</span>;
  return (
    <span data-testid={testId} style={{ display: 'block', wordBreak: 'break-all' }}>
      {parts.map((p) => (
        <span key={`${p.label}=${p.value}`} style={{ display: 'block' }}>
          {p.label && (
            <span style={{ color: 'rgba(0,0,0,0.55)' }}>
              {p.label}
              {locale === 'zh-CN' ? '：' : ': '}
            </span>
          )}
          {p.value}
        </span>
      ))}
    </span>
  );
}
