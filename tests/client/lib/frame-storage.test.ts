import { FRAME_HEADER, FRAME_SESSION_HEADER, keySuffixOf } from '#contract/transport.ts';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { roomTokenFor, saveRoomLogin } from '@/api/flow.ts';
import { post } from '@/api/http.ts';
import { browser } from '@/lib/browser.ts';
import { localStore, sessionStore } from '@/lib/safe-storage.ts';
import { frameHeaders } from '@/session/frame-session.ts';
import { getToken, useSessionStore } from '@/session/session-store.ts';
import { CSIGN, loginInfo, ok, server } from '../fixtures/msw.ts';

// Inside a partner's frame on another site, Chromium with third-party cookies blocked throws on merely
// reading window.sessionStorage ("Access is denied for this document"), and keeps no unpartitioned cookie
// (issue 25). The app must work there to the end, from memory.
function denyStorage() {
  const denied = () => {
    throw new DOMException('Access is denied for this document.', 'SecurityError');
  };
  vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(denied);
  vi.spyOn(window, 'localStorage', 'get').mockImplementation(denied);
}

afterEach(() => {
  vi.restoreAllMocks();
  useSessionStore.getState().clearLocalLogin();
});

describe('storage refused by the browser', () => {
  it('the safe stores keep values in memory and say they do not persist', () => {
    denyStorage();
    expect(() => window.sessionStorage).toThrow(/Access is denied/);
    sessionStore.setItem('k', 'v');
    localStore.setItem('lang', 'en-US');
    expect(sessionStore.getItem('k')).toBe('v');
    expect(localStore.getItem('lang')).toBe('en-US');
    expect(sessionStore.persists).toBe(false);
    sessionStore.removeItem('k');
    expect(sessionStore.getItem('k')).toBeNull();
  });

  it('where storage works they use it', () => {
    sessionStore.setItem('k2', 'v2');
    expect(window.sessionStorage.getItem('k2')).toBe('v2');
    expect(sessionStore.persists).toBe(true);
    sessionStore.removeItem('k2');
  });

  it('a login is kept (it threw "Access is denied" before)', () => {
    denyStorage();
    expect(() => useSessionStore.getState().setVerified(loginInfo({ phone: '13800000001' }))).not.toThrow();
    expect(useSessionStore.getState().userInfo?.phone).toBe('13800000001');
  });

  it("a framed room's token lives in the page's memory when nothing else keeps it", () => {
    denyStorage();
    vi.spyOn(browser, 'isFramed').mockReturnValue(true);
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    saveRoomLogin({ roomToken: 'room-tok', expiresAt, partyId: 'party-x', flowId: 'flow-x' } as never);
    expect(roomTokenFor('party-x')).toBe('room-tok');
    // An expired token is not used.
    expect(roomTokenFor('party-x', Date.now() + 120_000)).toBeNull();
  });
});

describe('a framed session (transport.ts FRAME_HEADER)', () => {
  it('says it is framed, keeps the session a login answers in headers, and sends it back with the XSRF headers', async () => {
    vi.spyOn(browser, 'isFramed').mockReturnValue(true);
    const seen: Headers[] = [];
    server.use(
      http.post(`${CSIGN}/userLogin`, ({ request }) => {
        seen.push(request.headers);
        return HttpResponse.json(
          { code: 0, msg: 'ok', data: loginInfo() },
          { headers: { [FRAME_SESSION_HEADER]: 'sid-secret', 'x-xsrf-token': 'frame-token' } },
        );
      }),
      http.post(`${CSIGN}/echo`, ({ request }) => {
        seen.push(request.headers);
        return ok(null);
      }),
    );
    await post(`${CSIGN}/userLogin`, {});
    expect(seen[0].get(FRAME_HEADER)).toBe('1');
    expect(seen[0].get(FRAME_SESSION_HEADER)).toBeNull();
    expect(getToken()).toBe('frame-token');
    await post(`${CSIGN}/echo`, {});
    expect(seen[1].get(FRAME_SESSION_HEADER)).toBe('sid-secret');
    expect(seen[1].get('x-xsrf-token')).toBe('frame-token');
    expect(seen[1].get('keysuffix')).toBe(keySuffixOf('frame-token'));
    // The PDF viewer's downloads carry it too.
    expect(frameHeaders()).toEqual({ [FRAME_HEADER]: '1', [FRAME_SESSION_HEADER]: 'sid-secret' });
    // Logging out (or a session code) forgets it.
    useSessionStore.getState().clearLocalLogin();
    expect(getToken()).toBeUndefined();
    expect(frameHeaders()).toEqual({ [FRAME_HEADER]: '1' });
  });

  it('outside a frame nothing is added and no header session is kept', async () => {
    const seen: Headers[] = [];
    server.use(
      http.post(`${CSIGN}/echo`, ({ request }) => {
        seen.push(request.headers);
        return HttpResponse.json(
          { code: 0, msg: 'ok', data: null },
          { headers: { [FRAME_SESSION_HEADER]: 'sid-secret', 'x-xsrf-token': 'frame-token' } },
        );
      }),
    );
    await post(`${CSIGN}/echo`, {});
    await post(`${CSIGN}/echo`, {});
    expect(seen[1].get(FRAME_HEADER)).toBeNull();
    expect(seen[1].get(FRAME_SESSION_HEADER)).toBeNull();
    expect(getToken()).toBeUndefined();
  });
});
