import { describe, expect, it } from 'vitest';
import { isPhoneDevice, transitionTarget } from '@/features/signing-room/device.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const IPAD_AS_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';

const q = (s: string) => new URLSearchParams(s);
const FLOW = 'flowId=f1&partyId=p1';

describe('signing-room transition', () => {
  it('tells phones from desktops by user agent, touch iPads and narrow windows', () => {
    expect(isPhoneDevice({ userAgent: IPHONE, width: 1024 })).toBe(true);
    expect(isPhoneDevice({ userAgent: ANDROID, width: 412 })).toBe(true);
    expect(isPhoneDevice({ userAgent: DESKTOP, width: 1440 })).toBe(false);
    expect(isPhoneDevice({ userAgent: DESKTOP, width: 375 })).toBe(true);
    expect(
      isPhoneDevice({ userAgent: IPAD_AS_MAC, width: 1180, platform: 'MacIntel', maxTouchPoints: 5 }),
    ).toBe(true);
    expect(
      isPhoneDevice({ userAgent: IPAD_AS_MAC, width: 1440, platform: 'MacIntel', maxTouchPoints: 0 }),
    ).toBe(false);
  });

  it('sends phones to the h5 rooms and desktops to the PC rooms, keeping the room in the query', () => {
    expect(transitionTarget(q(FLOW), true)).toBe('/h5/v1/signing_room?flowId=f1&partyId=p1');
    expect(transitionTarget(q(`${FLOW}&room=step`), true)).toBe(
      '/h5/v1/step_room?flowId=f1&partyId=p1&room=step',
    );
    expect(transitionTarget(q(`${FLOW}&room=temp`), true)).toBe(
      '/h5/v1/tempOutSignRoom?flowId=f1&partyId=p1&room=temp',
    );
    expect(transitionTarget(q(FLOW), false)).toBe('/pc/v1/signing_room?flowId=f1&partyId=p1');
    expect(transitionTarget(q(`${FLOW}&room=temp`), false)).toBe(
      '/pc/v1/tempSigning_room?flowId=f1&partyId=p1&room=temp',
    );
    // A desktop has no step room: every step shows in the one room.
    expect(transitionTarget(q(`${FLOW}&room=step`), false)).toBe(
      '/pc/v1/signing_room?flowId=f1&partyId=p1&room=step',
    );
    // Nothing else of the query travels on (a token pasted into a link stays behind).
    expect(transitionTarget(q(`${FLOW}&roomToken=secret`), false)).toBe(
      '/pc/v1/signing_room?flowId=f1&partyId=p1',
    );
  });
});
