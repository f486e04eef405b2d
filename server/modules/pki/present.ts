import type { CertRecord, CertStatus } from '../../pki/cert-repository.ts';

/** A certificate as the certificate screens show it: serial, subject, validity (ISO text) and status. */
type CertSummary = {
  serial: string;
  subject: string;
  notBefore: string;
  notAfter: string;
  status: CertStatus;
};

/**
 * The one presenter of a certificate's summary (company, seal, cert and person screens); each adds what
 * its own answer carries beside it (PEM, issuer, history fields).
 */
export function presentCertSummary(
  cert: Pick<CertRecord, 'serial' | 'subject' | 'notBefore' | 'notAfter' | 'status'>,
): CertSummary {
  return {
    serial: cert.serial,
    subject: cert.subject,
    notBefore: cert.notBefore.toISOString(),
    notAfter: cert.notAfter.toISOString(),
    status: cert.status,
  };
}
