/**
 * How the app shows a transient message, from React code and from code outside React (the HTTP client's
 * error catalogue). antd's message loads on first use, so no page pays for it before something is said;
 * its theme comes from ConfigProvider.config({ holderRender }) in src/lib/antd-static.tsx.
 */
type Notifier = {
  error: (text: string, durationMs: number) => void;
  success: (text: string, durationMs: number) => void;
};

const loadMessage = () => import('./antd-static.tsx').then((m) => m.loadMessage());

// One key per kind: a new success message replaces the one still showing instead of stacking under it
// (issue 11 edge 8); so does a new error.
const SUCCESS_KEY = 'notify-success';
const ERROR_KEY = 'notify-error';

const antdNotifier: Notifier = {
  error: (text, durationMs) => {
    void loadMessage().then((message) =>
      message.error({ content: text, duration: durationMs / 1000, key: ERROR_KEY }),
    );
  },
  success: (text, durationMs) => {
    void loadMessage().then((message) =>
      message.success({ content: text, duration: durationMs / 1000, key: SUCCESS_KEY }),
    );
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
