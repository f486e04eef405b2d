/**
 * How the app shows a transient message, from React code and from code outside React (the HTTP client's
 * error catalogue). antd's message loads on first use, so no page pays for it before something is said;
 * its theme comes from ConfigProvider.config({ holderRender }) in src/lib/antd-static.tsx.
 */
export type Notifier = {
  error: (text: string, durationMs: number) => void;
  success: (text: string, durationMs: number) => void;
};

const loadMessage = () => import('./antd-static.tsx').then((m) => m.loadMessage());

const antdNotifier: Notifier = {
  error: (text, durationMs) => {
    void loadMessage().then((message) => message.error(text, durationMs / 1000));
  },
  success: (text, durationMs) => {
    void loadMessage().then((message) => message.success(text, durationMs / 1000));
  },
};

let current: Notifier = antdNotifier;

export const notify: Notifier = {
  error: (text, durationMs) => current.error(text, durationMs),
  success: (text, durationMs) => current.success(text, durationMs),
};

/** Swap the notifier (tests observe messages this way); null restores antd's. */
export function setNotifier(next: Notifier | null): void {
  current = next ?? antdNotifier;
}
