import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { useEffect, useId, useState } from 'react';
import { getNoticeEmail, type NoticeEmailSettings, setNoticeEmail } from '@/api/messaging.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { texts } from './notice-email-texts.ts';
import { showApiError } from '@/api/http.ts';

const looksLikeEmail = (v: string) => v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);

/**
 * The person's e-mail for notices (server: users.email), its language and, from the platform in use,
 * the brand the e-mails carry. Shown on /personalDetails.
 */
export function NoticeEmailCard() {
  const tt = useTexts(texts);
  const platform = usePlatformStore((s) => s.code);
  const emailId = useId();
  const langId = useId();
  const [settings, setSettings] = useState<NoticeEmailSettings | null>(null);
  const [email, setEmail] = useState('');
  const [lang, setLang] = useState<'zh' | 'en'>('zh');
  const [isSaving, setIsSaving] = useState(false);

  useEffect(() => {
    getNoticeEmail().then(
      (s) => {
        setSettings(s);
        setEmail(s.email ?? '');
        setLang(s.lang);
      },
      () => {},
    );
  }, []);

  const isValid = looksLikeEmail(email.trim());
  const save = async () => {
    if (!isValid) return;
    setIsSaving(true);
    try {
      const isKnown = ['BCP_STFWPT', 'ZHDB', 'ZYPT'].includes(platform);
      const s = await setNoticeEmail({
        email: email.trim(),
        lang,
        ...(isKnown ? { fromPtCode: platform } : {}),
      });
      setSettings(s);
      notify.success(tt('saved'), 1500);
    } catch (e) {
      showApiError(e);
    } finally {
      setIsSaving(false);
    }
  };

  if (!settings) return null;
  return (
    <Card title={tt('emailTitle')} style={{ marginTop: 16 }} data-testid="notice-email">
      <p>{tt('emailIntro')}</p>
      {settings.isMailConfigured ? null : (
        <Alert type="info" title={tt('notConfigured')} style={{ marginBottom: 12 }} />
      )}
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <div style={{ flex: '1 1 240px' }}>
          <label htmlFor={emailId}>{tt('emailLabel')}</label>
          <Input
            id={emailId}
            type="email"
            value={email}
            status={isValid ? undefined : 'error'}
            onChange={(e) => setEmail(e.target.value)}
          />
          {isValid ? null : <div style={{ color: '#ec1c23' }}>{tt('badEmail')}</div>}
        </div>
        <div>
          <label htmlFor={langId}>{tt('emailLang')}</label>
          <br />
          <Select
            id={langId}
            aria-label={tt('emailLang')}
            style={{ width: 120 }}
            value={lang}
            onChange={(v: 'zh' | 'en') => setLang(v)}
            options={[
              { value: 'zh', label: tt('langZh') },
              { value: 'en', label: tt('langEn') },
            ]}
          />
        </div>
        <Button type="primary" loading={isSaving} disabled={!isValid} onClick={save}>
          {tt('save')}
        </Button>
      </div>
    </Card>
  );
}
