// Signers ready to sign, through any HTTP transport: app.inject in process (bench/flow.ts) or fetch against
// a running server or balancer (bench/cluster.ts, the several-instances test). Each signer is a registered,
// real-name person with an agreement, a certificate and a seal; each gets a flow of its own (launched by one
// initiator, who signs second, so no completion work is counted), a signing room and its SMS code.
import { randomInt } from 'node:crypto';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { uploadDocument } from '#contract/calls/document.ts';
import {
  getFlowDetail,
  launchFlow,
  sendSignSmsCode,
  signDocument,
  signingRoomLogin,
} from '#contract/calls/flow.ts';
import {
  acceptUserAgreement,
  authIdNamePhone,
  createPersonCaCert,
  getUserAgreement,
} from '#contract/calls/person.ts';
import { savePersonSeal } from '#contract/calls/seal.ts';
import { sendSmsCode, userRegister } from '#contract/calls/session.ts';
import { type CallDef, callPath } from '#contract/envelope.ts';
import { idCheckChar } from '#contract/rules/id-number.ts';
import { KEY_SUFFIX_HEADER, TOKEN_COOKIE, XSRF_HEADER, keySuffixOf } from '#contract/transport.ts';

/** Sends one POST; answers the status, the Set-Cookie lines and the body text. */
export type Send = (req: {
  url: string;
  headers: Record<string, string>;
  cookies: Record<string, string>;
  payload: string | Buffer;
}) => Promise<{ status: number; setCookies: string[]; body: string }>;

export class CallError extends Error {
  readonly call: string;
  readonly status: number;
  /** The envelope's code; null when the answer was no envelope (e.g. the balancer's 502 page). */
  readonly code: number | null;
  constructor(call: string, status: number, code: number | null, msg: string) {
    super(`${call}: HTTP ${status}, code ${code} ${msg}`);
    this.call = call;
    this.status = status;
    this.code = code;
  }
}

/** One browser: keeps its cookies and sends the XSRF headers from its token cookie, as the client does. */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly #send: Send;

  constructor(send: Send) {
    this.#send = send;
  }

  async call<T>(def: Pick<CallDef, 'name' | 'prefix'>, body: unknown, file?: Uint8Array): Promise<T> {
    const token = this.cookies.get(TOKEN_COOKIE) ?? '';
    const headers: Record<string, string> = token
      ? { [XSRF_HEADER]: token, [KEY_SUFFIX_HEADER]: keySuffixOf(token) }
      : {};
    let payload: string | Buffer = JSON.stringify(body);
    if (file) {
      const b = `----bench${randomInt(1e9)}`;
      headers['content-type'] = `multipart/form-data; boundary=${b}`;
      payload = Buffer.concat([
        Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="userType"\r\n\r\n0\r\n`),
        Buffer.from(
          `--${b}\r\nContent-Disposition: form-data; name="file"; filename="c.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        Buffer.from(file),
        Buffer.from(`\r\n--${b}--\r\n`),
      ]);
    } else headers['content-type'] = 'application/json';
    const res = await this.#send({
      url: callPath(def),
      headers,
      cookies: Object.fromEntries(this.cookies),
      payload,
    });
    for (const line of res.setCookies) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1)));
    }
    let out: { code: number; msg: string; data: T };
    try {
      out = JSON.parse(res.body) as { code: number; msg: string; data: T };
    } catch {
      throw new CallError(def.name, res.status, null, res.body.slice(0, 200));
    }
    if (out.code !== 0) throw new CallError(def.name, res.status, out.code, out.msg);
    return out.data;
  }
}

/** `fetch` against a base URL (a server or the balancer) as a Send. */
export const fetchSend =
  (base: string): Send =>
  async ({ url, headers, cookies, payload }) => {
    const cookie = Object.entries(cookies)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join('; ');
    const res = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
      body: typeof payload === 'string' ? payload : new Uint8Array(payload),
    });
    return { status: res.status, setCookies: res.headers.getSetCookie(), body: await res.text() };
  };

/** The latest SMS code for a phone and purpose, from the development outbox over HTTP. */
export const outboxCode = (base: string) => async (phone: string, purpose: string) => {
  const res = (await (await fetch(`${base}/v1/dev/outbox?phone=${phone}&limit=10`)).json()) as {
    data: { code: string | null; purpose: string }[];
  };
  const hit = res.data.find((m) => m.code && m.purpose === purpose);
  if (!hit?.code) throw new Error(`no ${purpose} code for ${phone}`);
  return hit.code;
};

export type Room = {
  b: Browser;
  /** The launcher, who may read the flow and download its document. */
  initiator: Browser;
  flowId: string;
  documentId: string;
  phone: string;
  roomToken: string;
  smsCode: string;
  sealId: string;
};

export type SignerKit = {
  newBrowser: () => Browser;
  code: (phone: string, purpose: string) => Promise<string>;
};

/** Runs `fn` over `items`, at most `limit` at a time. */
async function inBatches<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

let idSeq = 0;
/** A person ready to sign: registered, real-name checked, agreement accepted, certificate, seal. */
export async function person(kit: SignerKit, phone: string) {
  const b = kit.newBrowser();
  await b.call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
  await b.call(userRegister, {
    userType: 0,
    phone,
    password: 'Bench2024pass',
    smsCode: await kit.code(phone, 'register'),
  });
  await b.call(sendSmsCode, { userType: 0, phone, purpose: 'realName' });
  idSeq += 1;
  const first17 = `11010519850115${String(idSeq % 1000).padStart(3, '0')}`;
  await b.call(authIdNamePhone, {
    userType: 0,
    name: '张三',
    idNumber: first17 + idCheckChar(first17),
    phone,
    smsCode: await kit.code(phone, 'realName'),
  });
  const ag = await b.call<{ version: string }>(getUserAgreement, { userType: 0 });
  await b.call(acceptUserAgreement, { userType: 0, version: ag.version });
  await b.call(createPersonCaCert, { userType: 0 });
  const seal = await b.call<{ id: string }>(savePersonSeal, { userType: 0 });
  return { b, phone, sealId: seal.id };
}

/** A five-page contract. */
export async function contractPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < 5; i++)
    doc.addPage([595.28, 841.89]).drawText(`Contract page ${i + 1}`, { x: 72, y: 760, size: 20, font });
  return doc.save({ useObjectStreams: false });
}

/**
 * `parties` signers, each in a flow of its own, in their signing rooms with their SMS codes. Phones are
 * `prefix` (3 digits) + 8 digits; the initiator is prefix + 00000000. `concurrency` people are set up at once.
 */
export async function prepareRooms(
  kit: SignerKit,
  opts: { parties: number; prefix: string; concurrency?: number },
): Promise<Room[]> {
  const pdf = await contractPdf();
  const initiatorPhone = `${opts.prefix}00000000`;
  const initiator = (await person(kit, initiatorPhone)).b;
  const phones = Array.from(
    { length: opts.parties },
    (_, i) => `${opts.prefix}${String(i + 1).padStart(8, '0')}`,
  );
  return inBatches(phones, opts.concurrency ?? 1, async (phone) => {
    const s = await person(kit, phone);
    const up = await initiator.call<{ documentId: string }>(uploadDocument, { userType: 0 }, pdf);
    const pos = (left: number) => [
      { documentId: up.documentId, page: 1, mm: { left, top: 200, width: 30, height: 30 } },
    ];
    const { flowId } = await initiator.call<{ flowId: string }>(launchFlow, {
      userType: 0,
      title: 'bench',
      documentIds: [up.documentId],
      steps: [
        { parties: [{ kind: 'person', name: 's', phone: s.phone, positions: pos(20) }] },
        { parties: [{ kind: 'person', name: 'i', phone: initiatorPhone, positions: pos(100) }] },
      ],
    });
    const d = await s.b.call<{ mine: { myPendingPartyIds: string[] } }>(getFlowDetail, {
      userType: 0,
      flowId,
    });
    const room = await s.b.call<{ roomToken: string }>(signingRoomLogin, {
      userType: 0,
      flowId,
      partyId: d.mine.myPendingPartyIds[0],
    });
    await s.b.call(sendSignSmsCode, { userType: 0, roomToken: room.roomToken });
    return {
      b: s.b,
      initiator,
      flowId,
      documentId: up.documentId,
      phone,
      roomToken: room.roomToken,
      smsCode: await kit.code(phone, 'sign'),
      sealId: s.sealId,
    };
  });
}

/** Signs in one room (the signer's one signature of the bench). */
export const sign = (r: Room) =>
  r.b.call(signDocument, { userType: 0, roomToken: r.roomToken, smsCode: r.smsCode, personSealId: r.sealId });
