import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { recoverAccountFinish, recoverAccountVerify } from '@/api/person.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { checkIdNumberField, checkName, checkPhone, checkSmsCode } from '@/lib/person-fields.ts';
import { PlainForm, SmsField, TextInput, useFields } from './parts.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

type Ticket = { ticket: string; newPhoneMasked: string };

/** /mobile/recoverAccount/verify: name + ID number again, and the new phone's SMS code. */
export function RecoverVerifyPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const form = useFields({
    name: checkName,
    idNumber: (v) => checkIdNumberField(v),
    newPhone: checkPhone,
    smsCode: checkSmsCode,
  });
  const [isBusy, setIsBusy] = useState(false);
  const submit = async () => {
    if (!form.validate()) return;
    setIsBusy(true);
    try {
      const v = form.values;
      const ticket = await recoverAccountVerify({
        name: v.name.trim(),
        idNumber: v.idNumber.trim().toUpperCase(),
        newPhone: v.newPhone.trim(),
        smsCode: v.smsCode.trim(),
      });
      navigate(paths.mobileRecoverAccountFinish, { state: ticket satisfies Ticket });
    } catch (error) {
      showApiError(error);
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <main style={{ padding: 16, maxWidth: 480, margin: '0 auto' }}>
      <h1 style={{ fontSize: 20 }}>{tt('recoverTitle')}</h1>
      <p>{tt('recoverIntro')}</p>
      <PlainForm onSubmit={submit}>
        <TextInput
          name="name"
          label={tt('name')}
          value={form.values.name}
          error={form.errors.name}
          onChange={(v) => form.setValue('name', v)}
          maxLength={30}
        />
        <TextInput
          name="idNumber"
          label={tt('idNumber')}
          value={form.values.idNumber}
          error={form.errors.idNumber}
          onChange={(v) => form.setValue('idNumber', v)}
          maxLength={18}
        />
        <TextInput
          name="newPhone"
          label={tt('newPhone')}
          value={form.values.newPhone}
          error={form.errors.newPhone}
          onChange={(v) => form.setValue('newPhone', v)}
          inputMode="tel"
          maxLength={11}
        />
        <SmsField
          purpose="recoverAccount"
          value={form.values.smsCode}
          error={form.errors.smsCode}
          onChange={(v) => form.setValue('smsCode', v)}
          getValidPhone={() => (form.validate(['newPhone']) ? form.values.newPhone.trim() : null)}
        />
        <Button type="primary" htmlType="submit" block loading={isBusy}>
          {tt('recoverSubmit')}
        </Button>
      </PlainForm>
    </main>
  );
}

/** /mobile/recoverAccount/finish: confirm; the account moves and other devices are logged out. */
export function RecoverFinishPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const ticket = useLocation().state as Ticket | null;
  const [donePhone, setDonePhone] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const confirm = async () => {
    if (!ticket) return;
    setIsBusy(true);
    try {
      const done = await recoverAccountFinish({ ticket: ticket.ticket });
      setDonePhone(done.phoneMasked);
      await refreshLoginInfo();
    } catch (error) {
      showApiError(error);
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <main style={{ padding: 16, maxWidth: 480, margin: '0 auto' }}>
      {donePhone ? (
        <Result status="success" title={tt('recoverDone', { phone: donePhone })} />
      ) : ticket ? (
        <>
          <h1 style={{ fontSize: 20 }}>{tt('recoverFinishTitle', { phone: ticket.newPhoneMasked })}</h1>
          <p>{tt('recoverIntro')}</p>
          <Button type="primary" block loading={isBusy} onClick={confirm}>
            {tt('recoverConfirm')}
          </Button>
        </>
      ) : (
        <Result
          status="warning"
          title={tt('recoverMissing')}
          extra={
            <Button onClick={() => navigate(paths.mobileRecoverAccountVerify)}>{tt('recoverTitle')}</Button>
          }
        />
      )}
    </main>
  );
}
