/**
 * Page-level side effects behind one seam, so the HTTP client's reactions (reload, redirect, delays)
 * can be observed in tests without a real navigation.
 */
export const browser = {
  reload: () => window.location.reload(),
  assign: (url: string) => window.location.assign(url),
  later: (fn: () => void, ms: number) => {
    setTimeout(fn, ms);
  },
  isFramed: () => {
    try {
      return window.self !== window.top;
    } catch {
      // a cross-origin parent makes window.top unreadable: that is framed too
      return true;
    }
  },
};
