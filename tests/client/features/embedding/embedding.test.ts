import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/browser.ts';
import { EMBED_MESSAGE_SOURCE, notifyParent, setOriginsLoader, watchAccountOpened } from '@/lib/embedding.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { http } from 'msw';
import { recordParentMessages } from '../../fixtures/embedding.ts';

const PARTNER = 'https://research.example.org';

const posted = recordParentMessages();
beforeEach(() => setOriginsLoader(null));
afterEach(() => setOriginsLoader(null));

const framedAs = (code: string) => {
  vi.spyOn(browser, 'isFramed').mockReturnValue(true);
  usePlatformStore.getState().setCode(code);
};

describe('notifyParent', () => {
  it("posts the event to the partner's configured origins, each as the exact target — never '*'", async () => {
    framedAs('ZYPT');
    const asked: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getPlatformConfig`, async ({ request }) => {
        asked.push(await request.json());
        return ok({ fromPtCode: 'ZYPT', isKnown: true, origins: [PARTNER, 'https://b.example.org'] });
      }),
    );
    const count = await notifyParent('signingFinished', { flowId: 'f1', partyId: 'p1' });
    expect(count).toBe(2);
    expect(asked).toEqual([expect.objectContaining({ fromPtCode: 'ZYPT' })]);
    expect(posted.map((p) => p.origin)).toEqual([PARTNER, 'https://b.example.org']);
    expect(posted[0].message).toMatchObject({
      source: EMBED_MESSAGE_SOURCE,
      version: 1,
      event: 'signingFinished',
      payload: { flowId: 'f1', partyId: 'p1' },
      fromPtCode: 'ZYPT',
    });
    // The origins are asked once per page.
    await notifyParent('signingDeclined', { flowId: 'f1', partyId: 'p1' });
    expect(asked).toHaveLength(1);
    expect(posted).toHaveLength(4);
  });

  it('sends nothing outside a frame', async () => {
    vi.spyOn(browser, 'isFramed').mockReturnValue(false);
    usePlatformStore.getState().setCode('ZYPT');
    setOriginsLoader(async () => [PARTNER]);
    expect(await notifyParent('accountOpened', { userType: 0 })).toBe(0);
    expect(posted).toEqual([]);
  });

  it("the default platform posts to the origins the server gives it (FRAME_ANCESTORS' integrators)", async () => {
    framedAs('BCP_STFWPT');
    setOriginsLoader(async (code) => (code === 'BCP_STFWPT' ? [PARTNER] : []));
    expect(await notifyParent('signingFinished', { flowId: 'f1', partyId: 'p1' })).toBe(1);
    expect(posted).toEqual([
      expect.objectContaining({
        origin: PARTNER,
        message: expect.objectContaining({ event: 'signingFinished' }),
      }),
    ]);
  });

  it('sends nothing for a code without origins', async () => {
    framedAs('ZHDB');
    setOriginsLoader(async () => []);
    expect(await notifyParent('accountOpened', { userType: 0 })).toBe(0);
    expect(posted).toEqual([]);
  });

  it("drops anything that is not an exact origin ('*', paths) even if the server said so", async () => {
    framedAs('ZYPT');
    setOriginsLoader(async () => ['*', `${PARTNER}/path`, PARTNER]);
    expect(await notifyParent('accountOpened', { userType: 1 })).toBe(1);
    expect(posted.map((p) => p.origin)).toEqual([PARTNER]);
  });

  it('a failed origins call sends nothing and does not throw; the next event asks again', async () => {
    framedAs('ZYPT');
    let calls = 0;
    setOriginsLoader(async () => {
      calls += 1;
      if (calls === 1) throw new Error('offline');
      return [PARTNER];
    });
    expect(await notifyParent('accountOpened', { userType: 0 })).toBe(0);
    expect(await notifyParent('accountOpened', { userType: 0 })).toBe(1);
  });
});

describe('watchAccountOpened', () => {
  it("tells the parent 'accountOpened' when the refreshed login info turns hasCaCert on", async () => {
    framedAs('ZYPT');
    setOriginsLoader(async () => [PARTNER]);
    const stop = watchAccountOpened();
    useSessionStore.getState().setVerified(loginInfo({ hasCaCert: false }));
    useSessionStore.getState().setVerified(loginInfo({ hasCaCert: false, hasSeal: true }));
    await Promise.resolve();
    expect(posted).toEqual([]);
    useSessionStore.getState().setVerified(loginInfo({ hasCaCert: true }));
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0].message).toMatchObject({ event: 'accountOpened', payload: { userType: 0 } });
    // Another account logging in with a certificate is not an opening.
    useSessionStore.getState().clearLocalLogin();
    useSessionStore.getState().setVerified(loginInfo({ userId: 'u2', hasCaCert: false }));
    useSessionStore.getState().setVerified(loginInfo({ userId: 'u3', hasCaCert: true }));
    await new Promise((r) => setTimeout(r, 10));
    expect(posted).toHaveLength(1);
    stop();
  });
});
