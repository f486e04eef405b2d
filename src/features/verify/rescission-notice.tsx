// Void by agreement (issue 29): the verified file is the signed PDF of a contract voided by a rescission
// agreement. The signatures stay valid (nothing was changed); the page says the contract is void and names the
// agreement and the SHA-256 of its signed documents.
import Alert from 'antd/es/alert';
import type { VerifyResult } from '@/api/verify.ts';
import { defineTexts, useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';

const noticeTexts = defineTexts({
  'en-US': {
    title: 'Voided by agreement on {date}',
    body: 'The contract “{title}” was voided by the rescission agreement “{rescission}” (flow {flowId}), signed by its parties. Its signatures remain valid; the contract is no longer in force.',
    sha: 'SHA-256 of the signed rescission agreement:',
  },
  'zh-CN': {
    title: '已于 {date} 协议作废',
    body: '合同《{title}》已由各签署方签署的解除协议《{rescission}》（流程 {flowId}）作废。其签名仍然有效，但合同已不再有效。',
    sha: '已签署解除协议的 SHA-256：',
  },
});

export function RescissionNotice({ result }: { result: VerifyResult }) {
  const tt = useTexts(noticeTexts);
  const locale = useI18nStore((s) => s.locale);
  const r = result.rescission;
  if (!r) return null;
  return (
    <Alert
      type="error"
      showIcon
      data-testid="verify-rescission"
      style={{ margin: '8px 0' }}
      title={tt('title', { date: formatTime(r.voidedAt, locale) })}
      description={
        <>
          <p style={{ margin: '4px 0' }}>
            {tt('body', { title: r.title, rescission: r.rescissionTitle, flowId: r.rescissionFlowId })}
          </p>
          <div>{tt('sha')}</div>
          {r.rescissionSha256.map((h) => (
            <code key={h} style={{ display: 'block', wordBreak: 'break-all', fontSize: 12 }}>
              {h}
            </code>
          ))}
        </>
      }
    />
  );
}
