import { screen } from '@testing-library/react';
import { http } from 'msw';
import { Route } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/browser.ts';
import { setOriginsLoader } from '@/lib/embedding.ts';
import EmbedSignPage from '@/features/signing-room/embed-sign-page.tsx';
import SigningRoomPage from '@/features/signing-room/signing-room-page.tsx';
import { recordParentMessages } from '../../fixtures/embedding.ts';
import { CSIGN, fail, server } from '../../fixtures/msw.ts';
import { renderRoutes } from '../../fixtures/render-screen.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

// A partner's frame whose one-time signing URL is spent (loaded twice, or reloaded where the browser keeps
// nothing) must not point the signer to a message they never had (issue 25): it says to open signing again on
// the site around it, and tells that site, which can load a new URL.
const INTEGRATOR = 'https://crm.example.com';
const CODE = 'c'.repeat(43);
const spent = () =>
  server.use(
    http.post(`${CSIGN}/signingRoomLoginByEmbed`, () =>
      fail(1312, 'this signing address has expired or was already used: ask the sender for a new one'),
    ),
  );

freshClientEachTest({ locale: 'en-US' });
const posted = recordParentMessages();
beforeEach(() => setOriginsLoader(async () => [INTEGRATOR]));
afterEach(() => {
  setOriginsLoader(null);
  vi.restoreAllMocks();
});

describe('a spent embedded-signing URL', () => {
  it('in a frame: says to open signing again on the site, and posts signingRoomLost to the integrator', async () => {
    vi.spyOn(browser, 'isFramed').mockReturnValue(true);
    spent();
    renderRoutes(`/embed/sign?code=${CODE}`, <Route path="/embed/sign" element={<EmbedSignPage />} />);
    expect(await screen.findByText(/one-time link has been used/)).toBeTruthy();
    expect(screen.queryByText(/ask the sender/)).toBeNull();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0].origin).toBe(INTEGRATOR);
    expect(posted[0].message).toMatchObject({
      event: 'signingRoomLost',
      payload: { flowId: null, partyId: null },
    });
  });

  it('on its own page: the server says what happened, and nobody is told', async () => {
    spent();
    renderRoutes(`/embed/sign?code=${CODE}`, <Route path="/embed/sign" element={<EmbedSignPage />} />);
    expect(await screen.findByText(/ask the sender for a new one/)).toBeTruthy();
    expect(posted).toHaveLength(0);
  });

  it('a framed room reloaded where nothing was kept: the same words, with the room named to the integrator', async () => {
    vi.spyOn(browser, 'isFramed').mockReturnValue(true);
    renderRoutes(
      '/signingRoom?flowId=f9&partyId=p9',
      <Route path="/signingRoom" element={<SigningRoomPage />} />,
    );
    expect(await screen.findByText(/one-time link has been used/)).toBeTruthy();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0].message).toMatchObject({
      event: 'signingRoomLost',
      payload: { flowId: 'f9', partyId: 'p9' },
    });
  });
});
