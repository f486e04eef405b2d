import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Spin from 'antd/es/spin';
import { useEffect, useState } from 'react';
import { normaliseCreditCode } from '#contract/rules/credit-code.ts';
import {
  type CompanyApply,
  applyCompanyEsign,
  confirmCompanyMicroPayment,
  getCompanyApply,
  sendCompanyMicroPayment,
  switchAccount,
} from '@/api/company.ts';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { notify } from '@/lib/notify.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CompanyOpenSuccess } from './company-open-success.tsx';
import { LetterSection } from './letter-section.tsx';
import { DevProviderNotice, creditCodeValidator, showError, useAction, useCompanyTexts } from './parts.tsx';

type ApplyForm = {
  companyName: string;
  creditCode: string;
  legalRepName: string;
  applicantRole: 'legal_rep' | 'agent';
};

/**
 * Company opening (/manage/enterpriseEsign and /foundCompany): the application form, the agent's
 * power-of-attorney letter, the bank micro-payment confirmed by amount, then the platform's success page.
 */
export default function CompanyOpenPage() {
  const tt = useCompanyTexts();
  const navigate = useSafeNavigate();
  const setVerified = useSessionStore((s) => s.setVerified);
  const [apply, setApply] = useState<CompanyApply | null | undefined>(undefined);
  const [letterVersion, setLetterVersion] = useState(0);
  const { isBusy, run } = useAction();
  const [form] = Form.useForm<ApplyForm>();
  const [amountForm] = Form.useForm<{ amount: string }>();

  useEffect(() => {
    getCompanyApply({})
      .then(setApply)
      .catch((e) => {
        showError(e);
        setApply(null);
      });
  }, []);

  if (apply === undefined) return <Spin />;

  if (apply?.status === 'verified') {
    return (
      <CompanyOpenSuccess
        onEnter={() =>
          void run(async () => {
            const info = await switchAccount({ targetUserType: 1, companyId: apply.companyId });
            setVerified(info);
            navigate(paths.manageHome);
          })
        }
      />
    );
  }

  const submit = (values: ApplyForm) =>
    run(async () => {
      setApply(await applyCompanyEsign({ ...values, creditCode: normaliseCreditCode(values.creditCode) }));
    });

  if (!apply) {
    return (
      <Card title={tt('openTitle')} style={{ maxWidth: 640 }}>
        <DevProviderNotice provider="development" />
        <Form
          form={form}
          name="companyOpen"
          layout="vertical"
          initialValues={{ applicantRole: 'legal_rep' }}
          onFinish={submit}
        >
          <Form.Item
            name="companyName"
            label={tt('companyName')}
            rules={[
              { required: true, whitespace: true, message: tt('required') },
              { min: 2, max: 64, message: tt('nameLength') },
            ]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item
            name="creditCode"
            label={tt('creditCode')}
            rules={[{ validator: creditCodeValidator(tt) }]}
            validateTrigger="onBlur"
          >
            <Input maxLength={22} style={{ textTransform: 'uppercase' }} />
          </Form.Item>
          <Form.Item
            name="legalRepName"
            label={tt('legalRepName')}
            rules={[
              { required: true, whitespace: true, message: tt('required') },
              { min: 2, max: 32, message: tt('repLength') },
            ]}
          >
            <Input maxLength={32} />
          </Form.Item>
          <Form.Item name="applicantRole" label={tt('applicantRole')}>
            <Radio.Group>
              <Radio value="legal_rep">{tt('roleLegalRep')}</Radio>
              <Radio value="agent">{tt('roleAgent')}</Radio>
            </Radio.Group>
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={isBusy}>
            {tt('submitApply')}
          </Button>
        </Form>
      </Card>
    );
  }

  const needsLetter = apply.applicantRole === 'agent';
  const canSend = !needsLetter || apply.hasPowerOfAttorney;
  const confirm = ({ amount }: { amount: string }) =>
    run(async () => {
      try {
        setApply(await confirmCompanyMicroPayment({ companyId: apply.companyId, amount: amount.trim() }));
      } finally {
        amountForm.resetFields();
        // attempts left (or a payment that has to be sent again) come from the server
        setApply(await getCompanyApply({ companyId: apply.companyId }));
      }
    });

  return (
    <Card title={tt('openTitle')} style={{ maxWidth: 640 }}>
      <DevProviderNotice provider={apply.provider} />
      <p>
        <strong>{tt('applyOf', { name: apply.companyName, code: apply.creditCode })}</strong>
      </p>
      {needsLetter && (
        <LetterSection
          companyId={apply.companyId}
          hasLetter={apply.hasPowerOfAttorney}
          letterType={apply.powerOfAttorneyType}
          version={letterVersion}
          onSaved={(next) => {
            setApply(next);
            setLetterVersion((v) => v + 1);
          }}
        />
      )}
      <section aria-label={tt('paymentTitle')}>
        <h2 style={{ fontSize: 16 }}>{tt('paymentTitle')}</h2>
        <p>{tt('paymentHelp')}</p>
        <Button
          disabled={!canSend}
          loading={isBusy}
          onClick={() =>
            void run(async () => {
              const next = await sendCompanyMicroPayment({ companyId: apply.companyId });
              setApply(next);
              notify.success(tt('paymentSent', { left: next.attemptsLeft }), 2000);
            })
          }
        >
          {apply.isPaymentSent ? tt('resendPayment') : tt('sendPayment')}
        </Button>
        {apply.isPaymentSent && (
          <Form
            form={amountForm}
            name="microPayment"
            layout="vertical"
            onFinish={confirm}
            style={{ marginTop: 16 }}
          >
            <p data-testid="attempts-left">{tt('paymentSent', { left: apply.attemptsLeft })}</p>
            <Form.Item
              name="amount"
              label={tt('amount')}
              rules={[
                {
                  required: true,
                  pattern: /^\s*(\d{1,3}(\.\d{1,2})?|\.\d{1,2})\s*$/,
                  message: tt('amountFormat'),
                },
              ]}
            >
              <Input inputMode="decimal" maxLength={6} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={isBusy}>
              {tt('confirmAmount')}
            </Button>
          </Form>
        )}
      </section>
    </Card>
  );
}
