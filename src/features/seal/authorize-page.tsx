import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Empty from 'antd/es/empty';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  type Letter,
  authoriseSealWithLetters,
  listAuthorisationLetters,
  sendLetterSmsCode,
} from '@/api/authorisation.ts';
import { authoriseSeal, listSealOperators, revokeSealAuthorisation, type SealOperator } from '@/api/seal.ts';
import { IntentCodeRow } from '@/components/intent-code-row.tsx';
import { paths } from '@/config/paths.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { MESSAGE_MS, SealStyles, useSealList, useSealTypeName } from './parts.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { formatTime, localInputValue } from '@/lib/format-time.ts';

type Values = { sealId: string; userIds: string[]; validFrom: string; validTo: string; smsCode: string };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * /manage/account/stamp/authorize: authorise a company seal to handlers for a period; revoke. The
 * administrator manages every seal, a seal keeper the seals they keep (issue 27).
 */
export default function AuthorizePage() {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const typeName = useSealTypeName();
  const navigate = useNavigate();
  const { data, reload: reloadSeals } = useSealList();
  // The member letters in force: each authorisation shows the letter it came with (issue 27).
  const [letters, setLetters] = useState<Letter[]>([]);
  const reload = useCallback(async () => {
    await reloadSeals();
    try {
      setLetters((await listAuthorisationLetters({ kind: 'member', pageNum: 1, pageSize: 100 })).list);
    } catch {
      setLetters([]); // the authorisations still show; only their letter numbers are missing
    }
  }, [reloadSeals]);
  useEffect(() => {
    listAuthorisationLetters({ kind: 'member', pageNum: 1, pageSize: 100 })
      .then((page) => setLetters(page.list))
      .catch(() => setLetters([]));
  }, []);
  const letterOf = (sealId: string, userId: string) =>
    letters.find(
      (l) =>
        l.granteeUserId === userId &&
        l.seals.some((s) => s.sealId === sealId) &&
        (l.state === 'active' || l.state === 'not_yet'),
    );
  const [operators, setOperators] = useState<SealOperator[] | null>(null);
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  useEffect(() => {
    listSealOperators()
      .then(setOperators)
      .catch((e) => {
        showApiError(e);
        setOperators([]);
      });
  }, []);

  const isAdmin = data?.role === 'admin';
  const submit = async (v: Values) => {
    setError(null);
    setIsSaving(true);
    try {
      const period = {
        sealId: v.sealId,
        userIds: v.userIds,
        validFrom: new Date(v.validFrom).toISOString(),
        validTo: new Date(v.validTo).toISOString(),
      };
      if (isAdmin) {
        // Each operator's authorisation comes with a letter the company signs (issue 27).
        const { letters } = await authoriseSealWithLetters({ ...period, smsCode: v.smsCode });
        notify.success(
          `${tt('authorised')} · ${tt('lettersIssued', { numbers: letters.map((l) => l.number).join(', ') })}`,
          MESSAGE_MS,
        );
      } else {
        // A seal keeper authorises the seals they keep; letters are the administrator's (the official seal).
        await authoriseSeal(period);
        notify.success(tt('authorised'), MESSAGE_MS);
      }
      form.setFieldValue('userIds', []);
      form.setFieldValue('smsCode', '');
      await reload();
    } catch (e) {
      setError(showApiError(e));
    } finally {
      setIsSaving(false);
    }
  };

  const revoke = async (authorisationId: string) => {
    try {
      await revokeSealAuthorisation({ authorisationId });
      notify.success(tt('revoked'), MESSAGE_MS);
      await reload();
    } catch (e) {
      showApiError(e);
    }
  };

  // The administrator's seals, or those a seal keeper keeps (the server marks them canManage).
  const seals = data?.role === 'admin' ? data.seals : (data?.seals ?? []).filter((s) => s.canManage);
  const mayAuthorise = data?.role === 'admin' || seals.length > 0;
  const label = (s: (typeof seals)[number]) =>
    `${typeName(s.sealType)}${s.name && s.name !== typeName(s.sealType) ? ` · ${s.name}` : ''}${
      s.status === 'disabled' ? ` (${tt('disabled')})` : ''
    }`;
  const now = new Date();

  return (
    <main className="seal-page">
      <SealStyles />
      <h1>{tt('authorise')}</h1>
      <div className="seal-toolbar">
        <Button onClick={() => navigate(paths.accountStamp)}>{tt('back')}</Button>
      </div>
      {data && !mayAuthorise ? <Alert type="info" title={tt('adminOnly')} /> : null}
      {data?.role === 'admin' && seals.length === 0 ? (
        <Empty description={tt('emptyCompany')}>
          <Button type="primary" onClick={() => navigate(paths.accountAddStamp)}>
            {tt('addCompanySeal')}
          </Button>
        </Empty>
      ) : null}
      {seals.length > 0 ? (
        <div className="seal-two-col">
          <Form<Values>
            form={form}
            layout="vertical"
            onFinish={submit}
            initialValues={{
              sealId: seals[0]?.id,
              userIds: [],
              validFrom: localInputValue(now),
              validTo: localInputValue(new Date(now.getTime() + 365 * DAY_MS)),
              smsCode: '',
            }}
          >
            <Form.Item
              name="sealId"
              label={tt('seal')}
              rules={[{ required: true, message: tt('sealRequired') }]}
            >
              <Radio.Group
                style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
                options={seals.map((s) => ({ value: s.id, label: label(s) }))}
              />
            </Form.Item>
            <Form.Item
              name="userIds"
              label={tt('operators')}
              rules={[{ required: true, type: 'array', min: 1, message: tt('operatorsRequired') }]}
            >
              {operators && operators.length === 0 ? (
                <span>{tt('noOperators')}</span>
              ) : (
                <Checkbox.Group
                  style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
                  options={(operators ?? []).map((o) => ({
                    value: o.userId,
                    label: o.name ? `${o.name} (${o.phone})` : o.phone,
                  }))}
                />
              )}
            </Form.Item>
            <Form.Item name="validFrom" label={tt('validFrom')} rules={[{ required: true }]}>
              <Input type="datetime-local" />
            </Form.Item>
            <Form.Item
              name="validTo"
              label={tt('validTo')}
              dependencies={['validFrom']}
              rules={[
                { required: true },
                ({ getFieldValue }) => ({
                  validator: (_, value: string) =>
                    !value || new Date(value) > new Date(getFieldValue('validFrom'))
                      ? Promise.resolve()
                      : Promise.reject(new Error(tt('periodInvalid'))),
                }),
              ]}
            >
              <Input type="datetime-local" />
            </Form.Item>
            {isAdmin ? (
              <>
                <Alert type="info" title={tt('letterNote')} style={{ marginBottom: 4 }} />
                <Form.Item
                  name="smsCode"
                  noStyle
                  rules={[{ required: true, pattern: /^\d{6}$/, message: tt('codeRequired') }]}
                >
                  <CodeField tt={tt} />
                </Form.Item>
              </>
            ) : (
              <Alert type="info" title={tt('keeperNoLetter')} style={{ marginBottom: 12 }} />
            )}
            <Form.Item shouldUpdate noStyle>
              {() =>
                form.getFieldError('smsCode').length ? (
                  <div role="alert" style={{ color: '#ff4d4f', marginBottom: 8 }}>
                    {form.getFieldError('smsCode')[0]}
                  </div>
                ) : null
              }
            </Form.Item>
            {error ? <Alert type="error" title={error} style={{ marginBottom: 12 }} /> : null}
            <Button type="primary" htmlType="submit" loading={isSaving}>
              {tt('authoriseSubmit')}
            </Button>
          </Form>
          <section aria-label={tt('currentAuthorisations')}>
            <h2 style={{ fontSize: 16 }}>{tt('currentAuthorisations')}</h2>
            {seals.map((s) => (
              <div key={s.id} style={{ marginBottom: 12 }}>
                <strong>{label(s)}</strong>
                {s.authorisations.length === 0 ? (
                  <div className="seal-card-muted">{tt('noAuthorisations')}</div>
                ) : (
                  <ul style={{ paddingLeft: 16, margin: '4px 0' }}>
                    {s.authorisations.map((a) => (
                      <li key={a.id} style={{ marginBottom: 4 }}>
                        {a.userName ?? a.phone}{' '}
                        {letterOf(s.id, a.userId) ? (
                          <Link to={paths.accountLetters}>
                            {tt('letterNumber', { number: letterOf(s.id, a.userId)?.number ?? '' })}
                          </Link>
                        ) : null}{' '}
                        <Tag color={a.isCurrent ? 'success' : 'default'}>
                          {a.isCurrent ? tt('current') : tt('upcoming')}
                        </Tag>
                        <div className="seal-card-muted">
                          {tt('validPeriod', {
                            from: formatTime(a.validFrom, locale),
                            to: formatTime(a.validTo, locale),
                          })}
                        </div>
                        <Button size="small" onClick={() => void revoke(a.id)}>
                          {tt('revoke')}
                        </Button>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            ))}
          </section>
        </div>
      ) : null}
    </main>
  );
}

/** The administrator's intent code as a form control (antd Form passes value and onChange). */
function CodeField(props: {
  tt: ReturnType<typeof useTexts<keyof (typeof texts)['en-US']>>;
  value?: string;
  onChange?: (v: string) => void;
}) {
  const { tt } = props;
  return (
    <IntentCodeRow
      id="authorise-sms"
      value={props.value ?? ''}
      onChange={(v) => props.onChange?.(v)}
      send={() => sendLetterSmsCode()}
      onSent={(phone) => notify.success(tt('codeSent', { phone }), MESSAGE_MS)}
      texts={{
        smsCode: tt('smsCode'),
        getCode: tt('getCode'),
        resend: (seconds) => tt('resend', { seconds }),
        hint: tt('codeHint'),
      }}
    />
  );
}
