import {
  getCertChangeInfo,
  reissueCaCert,
  renewCaCert,
  sendCertChangeSmsCode,
} from '#contract/calls/cert.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ServerModule } from '../server-module.ts';
import { certChangeInfo, reissueCert, renewCert, sendChangeCode } from './service.ts';

/** Certificate change (/manage/certChange): the calls of contract/calls/cert.ts. */
export const certModule: ServerModule = {
  name: 'cert',
  register(app, deps) {
    registerCall(app, getCertChangeInfo, ({ requireSession }) => certChangeInfo(deps, requireSession()));
    registerCall(app, sendCertChangeSmsCode, ({ requireSession, req }) =>
      sendChangeCode(deps, requireSession(), req.ip),
    );
    registerCall(app, renewCaCert, ({ body, requireSession }) =>
      renewCert(deps, requireSession(), body.smsCode),
    );
    registerCall(app, reissueCaCert, ({ body, requireSession }) =>
      reissueCert(deps, requireSession(), body.reason, body.smsCode),
    );
  },
};
