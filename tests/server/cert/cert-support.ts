// Helpers of the certificate-change tests: a person who opened e-signature through the real calls, the
// certChange SMS code, and the platform's OCSP responder and CRL asked through HTTP, read by openssl.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendCertChangeSmsCode } from '#contract/calls/cert.ts';
import {
  acceptUserAgreement,
  createPersonCaCert,
  getUserAgreement,
  type PersonCert,
} from '#contract/calls/person.ts';
import { type Agent, registerAndLogin, type TestApp } from '../helper.ts';
import { passRealName } from '../person/person-support.ts';
import { openssl, opensslBytes } from '../pki/fixture.ts';

/** Registers a person, passes the real-name check, accepts the agreement and gets the certificate. */
export async function openedPerson(t: TestApp, name = '王五') {
  const { agent, phone, password, info } = await registerAndLogin(t);
  await passRealName(t, agent, name);
  const agreement = await agent.call<{ version: string }>(getUserAgreement, { userType: 0 });
  const accepted = await agent.call(acceptUserAgreement, {
    userType: 0,
    version: agreement.body.data.version,
  });
  if (accepted.body.code !== 0) throw new Error(`acceptUserAgreement: ${JSON.stringify(accepted.body)}`);
  const cert = await agent.call<PersonCert>(createPersonCaCert, { userType: 0 });
  if (cert.body.code !== 0) throw new Error(`createPersonCaCert: ${JSON.stringify(cert.body)}`);
  return { agent, phone, password, userId: info.userId, name, cert: cert.body.data };
}

/** Settings of these tests: no resend wait, so one test may ask for several codes in a row. */
export const CERT_TEST_ENV = { SMS_RESEND_SECONDS: '0' };

/** Asks for a certChange code for the agent's account and reads it from the outbox. */
export async function certChangeCode(t: TestApp, agent: Agent, phone: string, userType = 0): Promise<string> {
  const sent = await agent.call(sendCertChangeSmsCode, { userType });
  if (sent.body.code !== 0) throw new Error(`sendCertChangeSmsCode: ${JSON.stringify(sent.body)}`);
  return t.smsCodeFor(phone, 'certChange');
}

/** The platform's published CA files, fetched over HTTP like a relying party, in a scratch folder. */
export async function relyingParty(t: TestApp) {
  const dir = mkdtempSync(join(tmpdir(), 'esign-cert-rp-'));
  const file = (name: string, data: string | Uint8Array) => {
    const p = join(dir, name);
    writeFileSync(p, data);
    return p;
  };
  const root = await t.app.inject({ method: 'GET', url: '/v1/pki/root.crt' });
  const rootPem = file('root.crt', root.body);
  const issuing = await t.app.inject({ method: 'GET', url: '/v1/pki/issuing.crt' });
  const issuingDer = file('issuing.der', issuing.rawPayload);
  const issuingPem = file('issuing.pem', opensslBytes(['x509', '-inform', 'DER', '-in', issuingDer]));

  return {
    /**
     * What the platform's OCSP responder says of a certificate: an `openssl ocsp -reqout` request POSTed
     * to /v1/pki/ocsp, the answer verified against the root by openssl. Answers openssl's text.
     */
    async ocsp(pem: string): Promise<string> {
      const name = `cert-${Math.random().toString(16).slice(2)}.pem`;
      const certFile = file(name, pem);
      const reqFile = `${certFile}.req`;
      opensslBytes(['ocsp', '-issuer', issuingPem, '-cert', certFile, '-no_nonce', '-reqout', reqFile]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/pki/ocsp',
        headers: { 'content-type': 'application/ocsp-request' },
        payload: readFileSync(reqFile),
      });
      if (res.statusCode !== 200) throw new Error(`OCSP answered HTTP ${res.statusCode}`);
      const respFile = file(`${name}.resp`, res.rawPayload);
      const out = openssl([
        'ocsp',
        '-reqin',
        reqFile,
        '-respin',
        respFile,
        '-no_nonce',
        '-issuer',
        issuingPem,
        '-cert',
        certFile,
        '-CAfile',
        rootPem,
      ]).out;
      // The file name openssl prints before the verdict is ours; keep only the verdict lines.
      return out.replaceAll(`${certFile}:`, 'cert:');
    },
    /** The current CRL (GET /v1/pki/crl), verified against the issuing CA, as openssl's text. */
    async crlText(): Promise<string> {
      const res = await t.app.inject({ method: 'GET', url: '/v1/pki/crl' });
      const crlFile = file(`crl-${Date.now()}.der`, res.rawPayload);
      return openssl(['crl', '-inform', 'DER', '-in', crlFile, '-CAfile', issuingPem, '-noout', '-text']).out;
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** How openssl prints a serial in a CRL: upper-case hex (compared without leading zeros). */
export const crlListsSerial = (crlText: string, serial: string) =>
  crlText.toUpperCase().includes(`SERIAL NUMBER: ${serial.toUpperCase().replace(/^0+/, '')}`) ||
  crlText.toUpperCase().includes(`SERIAL NUMBER: ${serial.toUpperCase()}`);
