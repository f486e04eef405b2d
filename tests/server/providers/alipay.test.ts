// Alipay through alipay-sdk against a local stand-in gateway that checks the RSA2 signature of every
// request with the application's public key (sorted parameters without `sign`, SHA256withRSA, as the
// open platform documents) and signs its answers with "Alipay's" key. Notifications are built and signed
// as Alipay builds them and posted through HTTP: a valid one credits the order once; forged, tampered,
// replayed or other-app ones credit nothing.
import { createSign, createVerify, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Agent, TestApp } from '../helper.ts';
import {
  loginInfo,
  type PaymentTest,
  refundOrder,
  startPayment,
  startPaymentTest,
} from '../fixtures/package.ts';
import { type StandIn, rsaPair } from '../fixtures/provider-stand-in.ts';

const app = rsaPair();
const alipay = rsaPair();
const APP_ID = '2021000000000001';

let gw: StandIn;
let t: TestApp;
let admin: Agent;
let buyer: Agent;

/** The documented content to sign: every parameter but sign (and sign_type for notifications), sorted. */
const signContent = (params: Record<string, string>, drop: string[]) =>
  Object.keys(params)
    .filter((k) => !drop.includes(k) && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');

function appSignatureValid(params: Record<string, string>): boolean {
  return createVerify('RSA-SHA256')
    .update(signContent(params, ['sign']))
    .verify(app.publicPem, params.sign ?? '', 'base64');
}

function notify(
  fields: { orderNo: string; amount: string; notifyId?: string; appId?: string; status?: string },
  signWith = alipay.privatePem,
) {
  const params: Record<string, string> = {
    notify_time: '2025-03-01 12:00:00',
    notify_type: 'trade_status_sync',
    notify_id: fields.notifyId ?? `ntf${randomBytes(8).toString('hex')}`,
    app_id: fields.appId ?? APP_ID,
    charset: 'utf-8',
    version: '1.0',
    trade_no: '2025030122001400000000000001',
    out_trade_no: fields.orderNo,
    total_amount: fields.amount,
    receipt_amount: fields.amount,
    trade_status: fields.status ?? 'TRADE_SUCCESS',
    subject: '电子签章套餐',
    gmt_payment: '2025-03-01 11:59:58',
  };
  params.sign = createSign('RSA-SHA256')
    .update(signContent(params, ['sign', 'sign_type']))
    .sign(signWith, 'base64');
  params.sign_type = 'RSA2';
  return new URLSearchParams(params).toString();
}

const post = (body: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/pay/notify/alipay',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    payload: body,
  });

let pay: PaymentTest;
beforeAll(async () => {
  pay = await startPaymentTest({
    handle: (req) => {
      const url = new URL(req.url, 'http://stand-in');
      const params: Record<string, string> = Object.fromEntries(url.searchParams);
      Object.assign(params, Object.fromEntries(new URLSearchParams(req.body)));
      if (!appSignatureValid(params))
        return {
          body: JSON.stringify({
            error_response: { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature' },
          }),
        };
      const biz = JSON.parse(params.biz_content ?? '{}');
      if (params.method === 'alipay.trade.refund') {
        const inner = JSON.stringify({
          code: '10000',
          msg: 'Success',
          trade_no: '2025030122001400000000000001',
          out_trade_no: biz.out_trade_no,
          refund_fee: biz.refund_amount,
          fund_change: 'Y',
        });
        const sign = createSign('RSA-SHA256').update(inner).sign(alipay.privatePem, 'base64');
        return { body: `{"alipay_trade_refund_response":${inner},"sign":"${sign}"}` };
      }
      return { body: JSON.stringify({ error_response: { code: '40004', msg: 'unknown method' } }) };
    },
    env: (gatewayUrl) => ({
      PAYMENT_PROVIDER: 'alipay',
      ALIPAY_GATEWAY: `${gatewayUrl}/gateway.do`,
      ALIPAY_APP_ID: APP_ID,
      ALIPAY_PRIVATE_KEY: app.privatePem,
      // Alipay's console shows the public key as bare base64: accepted as is.
      ALIPAY_PUBLIC_KEY: alipay.publicPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''),
    }),
    signings: 4,
    priceFen: 12345,
    buyerName: '支付宝买家',
  });
  ({ gateway: gw, t, admin, buyer } = pay);
}, 90_000);
afterAll(() => pay?.close());

describe('Alipay', () => {
  test('page pay on a PC and wap pay on a phone: signed addresses at the gateway', async () => {
    const order = await pay.order(2);
    const pc = await startPayment(buyer, order.orderNo, 'pc');
    expect(pc.kind).toBe('redirect');
    const u = new URL(pc.url!);
    expect(`${u.origin}${u.pathname}`).toBe(`${gw.url}/gateway.do`);
    const params = Object.fromEntries(u.searchParams);
    expect(params.method).toBe('alipay.trade.page.pay');
    expect(params.sign_type).toBe('RSA2');
    expect(params.notify_url).toBe('https://esign.example.com/v1/pay/notify/alipay');
    expect(params.return_url).toBe(`https://esign.example.com/#/buy/checkout?orderNo=${order.orderNo}`);
    expect(appSignatureValid(params)).toBe(true);
    expect(JSON.parse(params.biz_content)).toMatchObject({
      out_trade_no: order.orderNo,
      total_amount: '246.90',
      product_code: 'FAST_INSTANT_TRADE_PAY',
    });
    const h5 = await startPayment(buyer, order.orderNo, 'h5');
    const hp = Object.fromEntries(new URL(h5.url!).searchParams);
    expect(hp.method).toBe('alipay.trade.wap.pay');
    expect(JSON.parse(hp.biz_content).product_code).toBe('QUICK_WAP_WAY');
    expect(appSignatureValid(hp)).toBe(true);
    // A changed amount no longer verifies (the stand-in's check is real).
    expect(appSignatureValid({ ...hp, biz_content: hp.biz_content.replace('246.90', '0.01') })).toBe(false);
    expect(await pay.statusOf(order.orderNo)).toBe('awaiting_payment');
  });

  test('forged, tampered, other-app and unpaid notifications credit nothing', async () => {
    const order = await pay.order();
    const before = (await loginInfo(buyer)).totalQuantitySum;
    const forged = await post(notify({ orderNo: order.orderNo, amount: '123.45' }, rsaPair().privatePem));
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toBe('fail');
    const tampered = await post(
      notify({ orderNo: order.orderNo, amount: '0.01' }).replace('total_amount=0.01', 'total_amount=123.45'),
    );
    expect(tampered.statusCode).toBe(400);
    expect(
      (await post(notify({ orderNo: order.orderNo, amount: '123.45', appId: '2021999999999999' })))
        .statusCode,
    ).toBe(400);
    const waiting = await post(
      notify({ orderNo: order.orderNo, amount: '123.45', status: 'WAIT_BUYER_PAY' }),
    );
    expect(waiting.body).toBe('success');
    const short = await post(notify({ orderNo: order.orderNo, amount: '1.00' }));
    expect(short.body).toBe('success');
    expect(await pay.statusOf(order.orderNo)).toBe('awaiting_payment');
    expect((await loginInfo(buyer)).totalQuantitySum).toBe(before);
  });

  test('a valid notification credits once; a replay credits nothing; refund at the gateway', async () => {
    const order = await pay.order();
    const before = (await loginInfo(buyer)).totalQuantitySum;
    const n = notify({ orderNo: order.orderNo, amount: '123.45', notifyId: 'ntf-once' });
    const first = await post(n);
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('success');
    expect(await pay.statusOf(order.orderNo)).toBe('paid');
    expect((await loginInfo(buyer)).totalQuantitySum).toBe(before + 4);
    expect((await post(n)).body).toBe('success');
    await post(notify({ orderNo: order.orderNo, amount: '123.45', notifyId: 'ntf-twice' }));
    expect((await loginInfo(buyer)).totalQuantitySum).toBe(before + 4);

    const refunded = await refundOrder(admin, order.orderNo);
    expect(refunded.status).toBe('refunded');
    const req = gw.requests.at(-1)!;
    const params = {
      ...Object.fromEntries(new URL(req.url, 'http://x').searchParams),
      ...Object.fromEntries(new URLSearchParams(req.body)),
    };
    expect(params.method).toBe('alipay.trade.refund');
    expect(appSignatureValid(params)).toBe(true);
    expect(JSON.parse(params.biz_content)).toMatchObject({
      out_trade_no: order.orderNo,
      refund_amount: '123.45',
    });
    await post(n);
    expect(await pay.statusOf(order.orderNo)).toBe('refunded');
    expect((await loginInfo(buyer)).totalQuantitySum).toBe(before);
  });
});
