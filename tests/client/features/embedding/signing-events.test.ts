import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/browser.ts';
import { setOriginsLoader } from '@/lib/embedding.ts';
import { nativeBridge } from '@/lib/native-bridge.ts';
import { reportSigningResult } from '@/lib/signing-events.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { recordParentMessages } from '../../fixtures/embedding.ts';

const PARTNER = 'https://research.example.org';

const posted = recordParentMessages();
beforeEach(() => {
  // The server gives the default platform no origins unless FRAME_ANCESTORS names some.
  setOriginsLoader(async (code) => (code === 'BCP_STFWPT' ? [] : [PARTNER]));
});
afterEach(() => {
  setOriginsLoader(null);
  vi.restoreAllMocks();
});

describe('reportSigningResult', () => {
  it('tells a framing partner that the party signed, and the native app when there is one', async () => {
    vi.spyOn(browser, 'isFramed').mockReturnValue(true);
    usePlatformStore.getState().setCode('ZYPT');
    const bridge = nativeBridge();
    vi.spyOn(bridge, 'hasNative').mockReturnValue(true);
    const sent = vi.spyOn(bridge, 'sendSignResult').mockResolvedValue(undefined);

    await reportSigningResult({ flowId: 'f1', partyId: 'p1', result: 'signed' });

    expect(posted).toHaveLength(1);
    expect(posted[0].origin).toBe(PARTNER);
    expect(posted[0].message).toMatchObject({
      event: 'signingFinished',
      payload: { flowId: 'f1', partyId: 'p1' },
    });
    expect(sent).toHaveBeenCalledWith({ flowId: 'f1', partyId: 'p1', result: 'signed' });
  });

  it('reports a decline as signingDeclined, and stays quiet on the default platform without an app or integrator origins', async () => {
    vi.spyOn(browser, 'isFramed').mockReturnValue(true);
    usePlatformStore.getState().setCode('ZYPT');
    await reportSigningResult({ flowId: 'f2', partyId: 'p2', result: 'declined' });
    expect(posted[0].message).toMatchObject({ event: 'signingDeclined' });

    posted.length = 0;
    usePlatformStore.getState().setCode('BCP_STFWPT');
    const bridge = nativeBridge();
    vi.spyOn(bridge, 'hasNative').mockReturnValue(false);
    const sent = vi.spyOn(bridge, 'sendSignResult');
    await reportSigningResult({ flowId: 'f3', partyId: 'p3', result: 'signed' });
    expect(posted).toHaveLength(0);
    expect(sent).not.toHaveBeenCalled();
  });
});
