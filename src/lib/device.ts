// Phone or desktop: shared by the signing-room transition and the screens that choose a phone home.

/** Narrower than this (CSS px) counts as a phone even with a desktop user agent (a small window, an emulator). */
const PHONE_MAX_WIDTH = 768;

const PHONE_UA = /Android|iPhone|iPod|iPad|Mobile|HarmonyOS|MicroMessenger|Windows Phone/i;

/** Whether to show the phone (h5) signing room: a mobile user agent, a touch-first iPad, or a narrow screen. */
export function isPhoneDevice(
  env: { userAgent: string; width: number; maxTouchPoints?: number; platform?: string } = {
    userAgent: navigator.userAgent,
    width: window.innerWidth,
    maxTouchPoints: navigator.maxTouchPoints,
    platform: navigator.platform,
  },
): boolean {
  if (PHONE_UA.test(env.userAgent)) return true;
  // iPadOS reports itself as a Mac; only its touch points give it away.
  if (env.platform === 'MacIntel' && (env.maxTouchPoints ?? 0) > 1) return true;
  return env.width > 0 && env.width < PHONE_MAX_WIDTH;
}

/** Whether the screen takes touch input (a phone, a tablet, a touch laptop): where a pinch can zoom. */
export function isTouchScreen(
  env: { maxTouchPoints?: number } = { maxTouchPoints: navigator.maxTouchPoints },
): boolean {
  return (env.maxTouchPoints ?? 0) > 0;
}
