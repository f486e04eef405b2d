import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  cancelPackageOrder,
  getPackageOrder,
  type PackageOrder,
  type PaymentStart,
  startOrderPayment,
} from '@/api/package.ts';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { isPhoneDevice } from '@/lib/device.ts';
import { formatYuan, OrderStatusTag, usePackageName, usePackageTexts } from './parts.tsx';
import { formatTime } from '@/lib/format-time.ts';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

/** How often the screen asks whether the provider's notification has marked the order paid. */
const PAYMENT_POLL_MS = 3000;

/**
 * Online payment (WeChat Pay, Alipay): on a PC the WeChat QR code is shown (Alipay opens its page); on a
 * phone the browser goes to the provider. The order becomes paid only through the provider's verified
 * notification to the server; this screen just asks again until it sees that.
 */
function OnlinePayment({ order, onPaid }: { order: PackageOrder; onPaid: (o: PackageOrder) => void }) {
  const tt = usePackageTexts();
  const provider = order.paymentNotes?.provider ?? '';
  const providerName = provider === 'wechat' || provider === 'alipay' ? tt(`provider_${provider}`) : provider;
  const [started, setStarted] = useState<PaymentStart | null>(null);
  const [isBusy, setBusy] = useState(false);

  const pay = async () => {
    setBusy(true);
    try {
      const start = await startOrderPayment({
        orderNo: order.orderNo,
        channel: isPhoneDevice() ? 'h5' : 'pc',
      });
      if (start.kind === 'redirect' && start.url) window.location.assign(start.url);
      else setStarted(start);
    } catch (e) {
      showApiError(e);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (!started) return;
    const timer = window.setInterval(async () => {
      try {
        const o = await getPackageOrder({ orderNo: order.orderNo });
        if (o.status !== 'awaiting_payment') onPaid(o);
      } catch {
        // The next tick asks again.
      }
    }, PAYMENT_POLL_MS);
    return () => window.clearInterval(timer);
  }, [started, order.orderNo, onPaid]);

  return (
    <section data-testid="online-payment" style={{ marginTop: 16 }}>
      <Alert
        type="info"
        title={tt('payOnlineHint', { provider: providerName })}
        style={{ marginBottom: 12 }}
      />
      {started?.qrDataUrl ? (
        <div style={{ textAlign: 'center' }}>
          <img
            src={started.qrDataUrl}
            alt={tt('scanToPay')}
            data-testid="payment-qr"
            width={220}
            height={220}
          />
          <p>{tt('scanToPay')}</p>
          <p>{tt('waitingForPayment')}</p>
        </div>
      ) : (
        <Button type="primary" loading={isBusy} onClick={() => void pay()} data-testid="pay-online">
          {tt('payOnline', { provider: providerName })}
        </Button>
      )}
    </section>
  );
}

/**
 * The payment notes of an order (/buy/checkout and /buy/checkoutGroup): the order, its state and, while it
 * awaits payment, the bank-transfer details with the order number to quote, or the online payment.
 */
export function CheckoutView({ isGroup }: { isGroup: boolean }) {
  const tt = usePackageTexts();
  const nameOf = usePackageName();
  const locale = useI18nStore((s) => s.locale);
  const navigate = useSafeNavigate();
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo') ?? '';
  const [order, setOrder] = useState<PackageOrder | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!orderNo) return;
    try {
      const o = await getPackageOrder({ orderNo });
      setOrder(o);
      if (o.status === 'paid') void refreshLoginInfo();
    } catch (e) {
      setProblem(showApiError(e));
    }
  }, [orderNo]);
  useEffect(() => {
    void load();
  }, [load]);

  const cancel = async () => {
    try {
      setOrder(await cancelPackageOrder({ orderNo }));
    } catch (e) {
      showApiError(e);
    }
  };

  const onPaid = useCallback((o: PackageOrder) => {
    setOrder(o);
    if (o.status === 'paid') void refreshLoginInfo();
  }, []);

  const notes = order?.paymentNotes;
  return (
    <Card
      title={tt(isGroup ? 'checkoutGroupTitle' : 'checkoutTitle')}
      style={{ maxWidth: 760, margin: '16px auto' }}
    >
      {problem ? <Alert type="error" title={problem} /> : null}
      {order ? (
        <>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={tt('orderNo')}>
              <strong data-testid="order-no">{order.orderNo}</strong>
            </Descriptions.Item>
            <Descriptions.Item label={tt('status')}>
              <span data-testid="order-status">
                <OrderStatusTag status={order.status} />
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={tt('package')}>
              {tt('copiesOf', { copies: order.copies, name: nameOf(order) })} ·{' '}
              {tt('signings', { n: order.totalQuantity })}
            </Descriptions.Item>
            <Descriptions.Item label={tt('amount')}>
              <span data-testid="order-amount">{formatYuan(order.amountFen)}</span>
            </Descriptions.Item>
            {order.paidAt ? (
              <Descriptions.Item label={tt('paidAt')}>{formatTime(order.paidAt, locale)}</Descriptions.Item>
            ) : null}
            {order.validUntil ? (
              <Descriptions.Item label={tt('validUntil')}>
                {formatTime(order.validUntil, locale)}
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          {order.allocations.length ? (
            <Table
              style={{ marginTop: 16 }}
              size="small"
              pagination={false}
              rowKey="companyId"
              title={() => tt('allocations')}
              dataSource={order.allocations}
              columns={[
                { title: tt('receivers'), dataIndex: 'companyName' },
                { title: tt('receiverCode'), dataIndex: 'creditCode' },
                { title: tt('receiverQuantity'), dataIndex: 'quantity' },
              ]}
            />
          ) : null}
          {notes && notes.provider !== 'offline' ? (
            <OnlinePayment order={order} onPaid={onPaid} />
          ) : notes ? (
            <section aria-label={tt('checkoutTitle')} data-testid="payment-notes" style={{ marginTop: 16 }}>
              <Alert type="info" title={tt('payInstructions')} style={{ marginBottom: 12 }} />
              {notes.isDevelopmentDefault ? (
                <Alert type="warning" showIcon title={tt('devBank')} style={{ marginBottom: 12 }} />
              ) : null}
              <Descriptions column={1} bordered size="small">
                <Descriptions.Item label={tt('accountName')}>{notes.accountName}</Descriptions.Item>
                <Descriptions.Item label={tt('bankName')}>{notes.bankName}</Descriptions.Item>
                <Descriptions.Item label={tt('accountNo')}>{notes.accountNo}</Descriptions.Item>
                <Descriptions.Item label={tt('amount')}>{formatYuan(notes.amountFen)}</Descriptions.Item>
                <Descriptions.Item label={tt('reference')}>
                  <strong data-testid="payment-reference">{notes.reference}</strong>
                </Descriptions.Item>
                <Descriptions.Item label={tt('payBy')}>{formatTime(notes.payBy, locale)}</Descriptions.Item>
              </Descriptions>
            </section>
          ) : order.status === 'paid' ? (
            <Alert type="success" title={tt('paidNotice')} style={{ marginTop: 16 }} />
          ) : (
            <Alert type="info" title={tt('endedNotice')} style={{ marginTop: 16 }} />
          )}
          <Space wrap style={{ marginTop: 16 }}>
            <Button onClick={() => void load()}>{tt('refresh')}</Button>
            {order.status === 'awaiting_payment' ? (
              <Popconfirm title={tt('cancelConfirm')} onConfirm={cancel}>
                <Button danger>{tt('cancelOrder')}</Button>
              </Popconfirm>
            ) : null}
            <Button onClick={() => navigate(paths.manageProductList)}>{tt('backToPackages')}</Button>
            <Button onClick={() => navigate(paths.accountUserPackageDetail)}>{tt('usageLink')}</Button>
          </Space>
        </>
      ) : null}
    </Card>
  );
}
