// WeChat Pay v3 against a local stand-in of api.mch.weixin.qq.com that checks each request's
// WECHATPAY2-SHA256-RSA2048 signature with the merchant's public key, as the documentation specifies,
// and signs its answers with the platform key. Notifications are built as WeChat Pay builds them
// (AEAD_AES_256_GCM resource under the APIv3 key, RSA-SHA256 signature by the platform key) and posted
// through HTTP: a valid one credits the order once; forged, stale, replayed, re-sent or wrong-amount ones
// credit nothing.
import { createCipheriv, createSign, createVerify, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminConfirmOrder, adminRefundOrder, startOrderPayment } from '#contract/calls/package.ts';
import { sql } from 'drizzle-orm';
import { companyWithSeals } from '../fixtures/flow.ts';
import type { Agent, TestApp } from '../helper.ts';
import {
  loginInfo,
  makePackage,
  newGroupOrder,
  type PaymentTest,
  readOrder,
  refundOrder,
  startPayment,
  startPaymentTest,
} from '../fixtures/package.ts';
import { type SeenRequest, type StandIn, rsaPair } from '../fixtures/provider-stand-in.ts';

const merchant = rsaPair();
const platform = rsaPair();
const API_V3_KEY = 'a'.repeat(16) + 'B'.repeat(16);
const MCHID = '1900000109';
const APPID = 'wxd678efh567hg6787';
const PLATFORM_SERIAL = 'PUB_KEY_ID_0000000000000024101100397200000006';

let wx: StandIn;
let t: TestApp;
let admin: Agent;
let buyer: Agent;

/** The stand-in's check of the documented request signature. */
function verifyMerchantSignature(req: SeenRequest): boolean {
  const auth = String(req.headers.authorization ?? '');
  const m = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(auth);
  if (!m) return false;
  const f = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
  if (f.mchid !== MCHID || f.serial_no !== 'MERCHANTSERIAL01') return false;
  const message = `${req.method}\n${req.url}\n${f.timestamp}\n${f.nonce_str}\n${req.body}\n`;
  return createVerify('RSA-SHA256').update(message).verify(merchant.publicPem, f.signature, 'base64');
}

/** An answer signed as WeChat Pay signs it. */
function signedAnswer(status: number, payload: unknown) {
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(8).toString('hex');
  const signature = createSign('RSA-SHA256')
    .update(`${timestamp}\n${nonce}\n${body}\n`)
    .sign(platform.privatePem, 'base64');
  return {
    status,
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-signature': signature,
      'wechatpay-serial': PLATFORM_SERIAL,
    },
    body,
  };
}

/** A TRANSACTION.SUCCESS notification as WeChat Pay sends it. */
function notification(
  tx: { orderNo: string; amountFen: number; transactionId?: string },
  opts: { id?: string; signWith?: string; timestamp?: number; key?: string } = {},
) {
  const resource = JSON.stringify({
    appid: APPID,
    mchid: MCHID,
    out_trade_no: tx.orderNo,
    transaction_id: tx.transactionId ?? '4200000000202501010000000001',
    trade_type: 'NATIVE',
    trade_state: 'SUCCESS',
    success_time: new Date().toISOString(),
    amount: { total: tx.amountFen, payer_total: tx.amountFen, currency: 'CNY', payer_currency: 'CNY' },
  });
  const nonce = randomBytes(6).toString('hex');
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(opts.key ?? API_V3_KEY), Buffer.from(nonce));
  cipher.setAAD(Buffer.from('transaction'));
  const ciphertext = Buffer.concat([cipher.update(resource), cipher.final(), cipher.getAuthTag()]);
  const body = JSON.stringify({
    id: opts.id ?? `EV-${randomBytes(8).toString('hex')}`,
    create_time: new Date().toISOString(),
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: ciphertext.toString('base64'),
      associated_data: 'transaction',
      nonce,
    },
  });
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  const headerNonce = randomBytes(8).toString('hex');
  const signature = createSign('RSA-SHA256')
    .update(`${timestamp}\n${headerNonce}\n${body}\n`)
    .sign(opts.signWith ?? platform.privatePem, 'base64');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': headerNonce,
      'wechatpay-signature': signature,
      'wechatpay-serial': PLATFORM_SERIAL,
    },
  };
}

const post = (n: { body: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/v1/pay/notify/wechat', headers: n.headers, payload: n.body });

let pay: PaymentTest;
beforeAll(async () => {
  pay = await startPaymentTest({
    handle: (req) => {
      if (!verifyMerchantSignature(req))
        return signedAnswer(401, { code: 'SIGN_ERROR', message: 'bad sign' });
      if (req.url === '/v3/pay/transactions/native')
        return signedAnswer(200, { code_url: 'weixin://wxpay/bizpayurl?pr=abc123' });
      if (req.url === '/v3/pay/transactions/h5')
        return signedAnswer(200, {
          h5_url: 'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx1',
        });
      if (req.url === '/v3/refund/domestic/refunds')
        return signedAnswer(200, { refund_id: '50000000382019052709732678859', status: 'PROCESSING' });
      return signedAnswer(404, { code: 'NOT_FOUND', message: 'no such API' });
    },
    env: (gatewayUrl) => ({
      PAYMENT_PROVIDER: 'wechat',
      WECHATPAY_ENDPOINT: gatewayUrl,
      WECHATPAY_MCHID: MCHID,
      WECHATPAY_APPID: APPID,
      WECHATPAY_MERCHANT_SERIAL_NO: 'MERCHANTSERIAL01',
      WECHATPAY_PRIVATE_KEY: merchant.privatePem,
      WECHATPAY_PLATFORM_CERT: platform.publicPem,
      WECHATPAY_PLATFORM_SERIAL: PLATFORM_SERIAL,
      WECHATPAY_API_V3_KEY: API_V3_KEY,
    }),
    signings: 5,
    priceFen: 9900,
    buyerName: '微信买家',
  });
  ({ gateway: wx, t, admin, buyer } = pay);
}, 90_000);
afterAll(() => pay?.close());

describe('WeChat Pay v3', () => {
  test('PC: a signed Native order answers the QR code; phone: the H5 address', async () => {
    const order = await pay.order(2);
    expect(order.paymentNotes?.provider).toBe('wechat');
    const pc = await startPayment(buyer, order.orderNo, 'pc');
    expect(pc.kind).toBe('qr');
    expect(pc.codeUrl).toBe('weixin://wxpay/bizpayurl?pr=abc123');
    expect(pc.qrDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    const sent = wx.requests.at(-1)!;
    expect(verifyMerchantSignature(sent)).toBe(true);
    const body = JSON.parse(sent.body);
    expect(body).toMatchObject({
      appid: APPID,
      mchid: MCHID,
      out_trade_no: order.orderNo,
      notify_url: 'https://esign.example.com/v1/pay/notify/wechat',
      amount: { total: 19800, currency: 'CNY' },
    });
    expect(body.time_expire).toMatch(/\+08:00$/);

    const h5 = await startPayment(buyer, order.orderNo, 'h5');
    expect(h5.kind).toBe('redirect');
    const url = new URL(h5.url!);
    expect(url.searchParams.get('redirect_url')).toBe(
      `https://esign.example.com/#/buy/checkout?orderNo=${order.orderNo}`,
    );
    expect(JSON.parse(wx.requests.at(-1)!.body).scene_info.h5_info.type).toBe('Wap');
    // Coming back from WeChat proves nothing: the order still awaits its notification.
    expect(await pay.statusOf(order.orderNo)).toBe('awaiting_payment');
  });

  test('a stand-in answer without a valid platform signature is not believed', async () => {
    const order = await pay.order();
    wx.handle(() => ({ status: 200, body: JSON.stringify({ code_url: 'weixin://forged' }) }));
    try {
      const res = await buyer.call(startOrderPayment, { userType: 0, orderNo: order.orderNo, channel: 'pc' });
      expect(res.body.code).not.toBe(0);
      expect(res.status).toBe(502);
    } finally {
      wx.handle((req) =>
        verifyMerchantSignature(req)
          ? signedAnswer(200, { refund_id: 'R-1', status: 'PROCESSING', code_url: 'weixin://x' })
          : signedAnswer(401, { code: 'SIGN_ERROR' }),
      );
    }
  });

  test('forged, stale, wrong-key and wrong-amount notifications credit nothing', async () => {
    const order = await pay.order();
    const before = (await loginInfo(buyer)).totalQuantitySum;
    const forger = rsaPair();
    const forged = await post(
      notification({ orderNo: order.orderNo, amountFen: 9900 }, { signWith: forger.privatePem }),
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('FAIL');
    const stale = await post(
      notification(
        { orderNo: order.orderNo, amountFen: 9900 },
        { timestamp: Math.floor(Date.now() / 1000) - 600 },
      ),
    );
    expect(stale.statusCode).toBe(400);
    const wrongKey = await post(
      notification({ orderNo: order.orderNo, amountFen: 9900 }, { key: 'x'.repeat(32) }),
    );
    expect(wrongKey.statusCode).toBe(400);
    // Tampered body after signing.
    const n = notification({ orderNo: order.orderNo, amountFen: 9900 });
    const tampered = await post({ ...n, body: n.body.replace('支付成功', '支付成功 ') });
    expect(tampered.statusCode).toBe(400);
    // Authentic, but not the order's amount: acknowledged (no retry), not credited.
    const wrongAmount = await post(notification({ orderNo: order.orderNo, amountFen: 1 }));
    expect(wrongAmount.statusCode).toBe(200);
    expect(await pay.statusOf(order.orderNo)).toBe('awaiting_payment');
    expect((await loginInfo(buyer)).totalQuantitySum).toBe(before);
  });

  test('a valid notification credits once; its replay and a re-sent copy credit nothing', async () => {
    const order = await pay.order();
    const before = (await loginInfo(buyer)).totalQuantitySum;
    const n = notification({ orderNo: order.orderNo, amountFen: 9900 }, { id: 'EV-ONCE-1' });
    const first = await post(n);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ code: 'SUCCESS', message: 'OK' });
    expect(await pay.statusOf(order.orderNo)).toBe('paid');
    expect((await loginInfo(buyer)).totalQuantitySum).toBe(before + 5);
    const replay = await post(n);
    expect(replay.statusCode).toBe(200);
    // WeChat Pay re-sends the same event with a new signature; another event id for the same transaction.
    await post(notification({ orderNo: order.orderNo, amountFen: 9900 }, { id: 'EV-ONCE-1' }));
    await post(notification({ orderNo: order.orderNo, amountFen: 9900 }, { id: 'EV-ONCE-2' }));
    expect((await loginInfo(buyer)).totalQuantitySum).toBe(before + 5);
    const paid = await readOrder(buyer, order.orderNo);
    expect(paid.paymentReference).toBe('4200000000202501010000000001');

    // The administrator cannot confirm an online order by hand.
    const other = await pay.order();
    const confirm = await admin.call(adminConfirmOrder, { userType: 0, orderNo: other.orderNo });
    expect(confirm.body.code).toBe(1100);
    expect(await pay.statusOf(other.orderNo)).toBe('awaiting_payment');

    // Refund: a signed refund request at WeChat Pay, then the signings are withdrawn; a replayed
    // payment notification afterwards credits nothing.
    const refunded = await refundOrder(admin, order.orderNo, '团购取消');
    expect(refunded.status).toBe('refunded');
    const refundReq = wx.requests.at(-1)!;
    expect(refundReq.url).toBe('/v3/refund/domestic/refunds');
    expect(verifyMerchantSignature(refundReq)).toBe(true);
    expect(JSON.parse(refundReq.body)).toMatchObject({
      out_trade_no: order.orderNo,
      amount: { refund: 9900, total: 9900, currency: 'CNY' },
    });
    await post(n);
    await post(notification({ orderNo: order.orderNo, amountFen: 9900 }, { id: 'EV-AFTER-REFUND' }));
    expect(await pay.statusOf(order.orderNo)).toBe('refunded');
    expect((await loginInfo(buyer)).totalQuantitySum).toBe(before);
  });

  test('a refund the provider refuses leaves the order paid', async () => {
    const order = await pay.order();
    await post(notification({ orderNo: order.orderNo, amountFen: 9900 }));
    expect(await pay.statusOf(order.orderNo)).toBe('paid');
    wx.handle(() => signedAnswer(403, { code: 'NOT_ENOUGH', message: '基本账户余额不足' }));
    const res = await admin.call(adminRefundOrder, { userType: 0, orderNo: order.orderNo });
    expect(res.body.code).toBe(1100);
    expect(await pay.statusOf(order.orderNo)).toBe('paid');
  });

  test('group purchase: paid by notification, the receiver credited; cancelled by a refund at WeChat Pay', async () => {
    wx.handle((req) => {
      if (!verifyMerchantSignature(req)) return signedAnswer(401, { code: 'SIGN_ERROR' });
      if (req.url === '/v3/pay/transactions/native') return signedAnswer(200, { code_url: 'weixin://group' });
      if (req.url === '/v3/refund/domestic/refunds')
        return signedAnswer(200, { refund_id: 'R-G', status: 'PROCESSING' });
      return signedAnswer(404, { code: 'NOT_FOUND' });
    });
    const buyerCo = await companyWithSeals(t, '微信统购');
    const receiverCo = await companyWithSeals(t, '微信收货');
    const r = await t.db.execute(sql`SELECT credit_code FROM companies WHERE id = ${receiverCo.id}`);
    const receiverCode = (r as unknown as { rows: { credit_code: string }[] }).rows[0].credit_code;
    const group = await makePackage(admin, { saleProductType: '20', signings: 10, priceFen: 50000 });
    const order = await newGroupOrder(buyerCo.admin.agent, group.id, 2, [
      { creditCode: receiverCode, quantity: 15 },
    ]);
    const start = await startPayment(buyerCo.admin.agent, order.orderNo, 'pc', 1);
    expect(start.codeUrl).toBe('weixin://group');
    expect(JSON.parse(wx.requests.at(-1)!.body).amount.total).toBe(100000);
    const receiverBefore = (await loginInfo(receiverCo.admin.agent, 1)).totalQuantitySum;
    expect((await post(notification({ orderNo: order.orderNo, amountFen: 100000 }))).statusCode).toBe(200);
    expect((await loginInfo(receiverCo.admin.agent, 1)).totalQuantitySum).toBe(receiverBefore + 15);
    const refunded = await refundOrder(admin, order.orderNo, '团购取消');
    expect(refunded.status).toBe('refunded');
    expect(JSON.parse(wx.requests.at(-1)!.body)).toMatchObject({
      out_trade_no: order.orderNo,
      reason: '团购取消',
      amount: { refund: 100000, total: 100000 },
    });
    expect((await loginInfo(receiverCo.admin.agent, 1)).totalQuantitySum).toBe(receiverBefore);
  }, 180_000);
});
