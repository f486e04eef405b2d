import { z } from 'zod';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/platform.ts';

/**
 * What the client needs to know about a platform code at run time. The layout switches (header, menu,
 * footer, buttons) are bundled with the client (src/platform/platforms.ts); the origins are deployment
 * settings (PARTNER_<CODE>_ORIGINS), so they come from the server.
 */
export const getPlatformConfig = defineCall({
  call: P.getPlatformConfig,
  auth: false,
  summary:
    'The origins of the partner platform `fromPtCode` (PARTNER_<CODE>_ORIGINS): the framed app posts its events ' +
    '(signing finished, declined, account opened) only to these. The default platform and unknown codes have none.',
  request: zBase.extend({ fromPtCode: z.string().trim().min(1).max(32) }),
  response: z.object({ fromPtCode: z.string(), isKnown: z.boolean(), origins: z.array(z.string()) }),
});

export const platformCalls = [getPlatformConfig] as const;
