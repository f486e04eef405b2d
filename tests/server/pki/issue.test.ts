import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InMemoryCertRepository } from '#server/pki/cert-repository.ts';
import { x509 } from '#server/pki/crypto.ts';
import { PkiInputError } from '#server/pki/issue.ts';
import { RevocationReason } from '#server/pki/profile.ts';
import { createPkiFixture, openssl, type PkiFixture } from '../fixtures/pki.ts';

const ID_NUMBER = '11010519491231002X';
const CREDIT_CODE = '91350100M000100Y43';

let f: PkiFixture;
let chain: string[];
beforeAll(async () => {
  f = await createPkiFixture();
  chain = ['-CAfile', join(f.dir, 'pki', 'root.crt'), '-untrusted', join(f.dir, 'pki', 'issuing.crt')];
});
afterAll(() => f?.close());

const person = () => ({ userType: 0 as const, accountId: randomUUID(), name: '张三', idNumber: ID_NUMBER });

describe('account certificates', () => {
  it('issues a person certificate that chains to the root and carries the profile', async () => {
    const c = await f.pki.issue(person());
    const file = f.file(`p-${c.serial}.pem`, c.pem);
    const v = openssl(['verify', ...chain, file]);
    expect(v.out).toContain(`${file}: OK`);
    // openssl's S/MIME-signer purpose: keyUsage and the emailProtection EKU fit a document signer.
    expect(openssl(['verify', ...chain, '-purpose', 'smimesign', file]).out).toContain(`${file}: OK`);

    const t = openssl(['x509', '-in', file, '-noout', '-text', '-nameopt', 'utf8,sep_comma_plus']).out;
    expect(t).toMatch(/Public-Key: \(2048 bit\)/);
    expect(t).toMatch(/Subject: C=CN,CN=张三,serialNumber=[0-9a-f]{64}\n/);
    expect(t).toMatch(/Key Usage: critical\s+Digital Signature, Non Repudiation\n/);
    expect(t).toMatch(/Extended Key Usage: \s*E-mail Protection, 1\.3\.6\.1\.5\.5\.7\.3\.36/);
    expect(t).toContain('URI:http://127.0.0.1:9/v1/pki/crl');
    expect(t).toContain('OCSP - URI:http://127.0.0.1:9/v1/pki/ocsp');
    expect(t).toContain('CA Issuers - URI:http://127.0.0.1:9/v1/pki/issuing.crt');
    expect(t).not.toMatch(/CA:TRUE/);

    // 16-byte positive serial, 1 year of validity.
    const cert = new x509.X509Certificate(c.pem);
    expect(c.serial).toMatch(/^[0-7][0-9a-f]{31}$/);
    const days = (cert.notAfter.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(366);
  });

  it('puts a keyed hash of the ID number in the subject, never the number', async () => {
    const a = await f.pki.issue(person());
    const b = await f.pki.issue({ ...person(), idNumber: ID_NUMBER.toLowerCase() });
    const other = await f.pki.issue({ ...person(), idNumber: '110105194912310038' });
    const sn = (pem: string) => new x509.X509Certificate(pem).subjectName.getField('2.5.4.5')[0];
    expect(sn(a.pem)).toBe(sn(b.pem));
    expect(sn(other.pem)).not.toBe(sn(a.pem));
    const der = Buffer.from(new x509.X509Certificate(a.pem).rawData);
    expect(der.includes(Buffer.from(ID_NUMBER))).toBe(false);
    expect(der.includes(Buffer.from('110105194912310'))).toBe(false);
  });

  it('issues a company certificate with the organisation', async () => {
    const c = await f.pki.issue({
      userType: 1,
      accountId: randomUUID(),
      name: '杭州某某科技有限公司',
      organisation: '杭州某某科技有限公司',
      idNumber: CREDIT_CODE,
    });
    const file = f.file(`c-${c.serial}.pem`, c.pem);
    expect(openssl(['verify', ...chain, file]).out).toContain(`${file}: OK`);
    const subject = openssl([
      'x509',
      '-in',
      file,
      '-noout',
      '-subject',
      '-nameopt',
      'utf8,sep_comma_plus',
    ]).out;
    expect(subject).toMatch(
      /^subject=C=CN,O=杭州某某科技有限公司,CN=杭州某某科技有限公司,serialNumber=[0-9a-f]{64}\n/,
    );
    expect(Buffer.from(new x509.X509Certificate(c.pem).rawData).includes(Buffer.from(CREDIT_CODE))).toBe(
      false,
    );
  });

  it('refuses bad subjects', async () => {
    await expect(f.pki.issue({ ...person(), name: '  ' })).rejects.toThrow(PkiInputError);
    await expect(f.pki.issue({ ...person(), name: '名'.repeat(65) })).rejects.toThrow(/longer than 64/);
    await expect(f.pki.issue({ ...person(), idNumber: '12-34' })).rejects.toThrow(/malformed/);
    await expect(
      f.pki.issue({ userType: 1, accountId: randomUUID(), name: 'X Co', idNumber: CREDIT_CODE }),
    ).rejects.toThrow(/organisation is required/);
  });

  it('hands the signing code a key that matches the certificate, and stores that key only encrypted', async () => {
    const holder = person();
    const c = await f.pki.issue(holder);
    const s = await f.pki.signer(holder);
    expect(s?.certificate.serial).toBe(c.serial);
    expect(s!.chain.map((d) => Buffer.from(d).toString('hex'))).toEqual([
      Buffer.from(f.pki.ca.issuing.der).toString('hex'),
      Buffer.from(f.pki.ca.root.der).toString('hex'),
    ]);
    const data = new TextEncoder().encode('document digest');
    const sig = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', s!.privateKey, data);
    const pub = await new x509.X509Certificate(c.pem).publicKey.export();
    expect(await crypto.subtle.verify('RSASSA-PKCS1-v1_5', pub, sig, data)).toBe(true);

    const stored = (f.repository as InMemoryCertRepository).records.get(c.serial)!.encryptedKey;
    expect(Buffer.from(stored).toString('latin1')).not.toMatch(/BEGIN|PRIVATE KEY/);
    expect(Buffer.from(stored).includes(Buffer.from('06092a864886f70d010101', 'hex'))).toBe(false);
    expect('encryptedKey' in c).toBe(false);
  });

  it('renews with a new key and serial and the same subject; the old one stays valid', async () => {
    const holder = person();
    const old = await f.pki.issue(holder);
    const renewed = await f.pki.renew(holder);
    expect(renewed.serial).not.toBe(old.serial);
    expect(renewed.subject).toBe(old.subject);
    expect((await f.pki.current(holder))?.serial).toBe(renewed.serial);
    expect((await f.repository.findBySerial(old.serial))?.status).toBe('good');
    await expect(f.pki.renew(person())).rejects.toThrow(/no current certificate/);
  });

  it('revokes and reissues on a name change, keeping the ID hash', async () => {
    const holder = person();
    const old = await f.pki.issue(holder);
    const { issued, revokedSerial } = await f.pki.reissue(holder, { name: '张三丰' });
    expect(revokedSerial).toBe(old.serial);
    const sn = (pem: string) => new x509.X509Certificate(pem).subjectName;
    expect(sn(issued.pem).getField('CN')).toEqual(['张三丰']);
    expect(sn(issued.pem).getField('2.5.4.5')).toEqual(sn(old.pem).getField('2.5.4.5'));
    const oldRec = await f.repository.findBySerial(old.serial);
    expect(oldRec?.status).toBe('revoked');
    expect(oldRec?.reason).toBe(RevocationReason.AffiliationChanged);
    expect((await f.pki.current(holder))?.serial).toBe(issued.serial);
    await expect(f.pki.revoke(old.serial)).rejects.toThrow(/already revoked/);
  });
});
