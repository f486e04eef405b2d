/**
 * Web storage that never throws. A cross-site frame (a partner's page on another site showing the product)
 * may be denied storage altogether: Chromium with third-party cookies blocked throws "Access is denied" on
 * merely reading `window.sessionStorage`, Safari partitions or refuses it, and private modes may refuse a write.
 * Every read and write of the app goes through here (biome's noRestrictedGlobals forbids the globals elsewhere);
 * when the browser's storage is refused, the value lives in this page's memory instead, so the screen works
 * for as long as the page lives and nothing depends on storage to be correct.
 */
export type SafeStorage = {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  clear(): void;
  /** True when values outlive a reload (the browser's storage answers); false when only memory does. */
  readonly persists: boolean;
};

function safeStorage(pick: () => Storage): SafeStorage {
  const memory = new Map<string, string>();
  // Looked up on every use: the getter itself is what throws in a blocked frame, and tests swap the global.
  const real = (): Storage | null => {
    try {
      return pick();
    } catch {
      return null;
    }
  };
  return {
    getItem(key) {
      try {
        const value = real()?.getItem(key);
        if (value !== null && value !== undefined) return value;
      } catch {
        // refused: memory answers
      }
      return memory.get(key) ?? null;
    },
    setItem(key, value) {
      try {
        const storage = real();
        if (storage) {
          storage.setItem(key, value);
          memory.delete(key);
          return;
        }
      } catch {
        // refused or full: memory keeps it
      }
      memory.set(key, value);
    },
    removeItem(key) {
      memory.delete(key);
      try {
        real()?.removeItem(key);
      } catch {
        // nothing stored there
      }
    },
    clear() {
      memory.clear();
      try {
        real()?.clear();
      } catch {
        // nothing stored there
      }
    },
    get persists() {
      try {
        const storage = real();
        if (!storage) return false;
        storage.setItem('__esign_probe__', '1');
        storage.removeItem('__esign_probe__');
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** This tab's storage (window.sessionStorage), or memory where it is refused. */
// biome-ignore lint/style/noRestrictedGlobals: the one place that touches the browser's storage
export const sessionStore: SafeStorage = safeStorage(() => sessionStorage);
/** This browser's storage (window.localStorage), or memory where it is refused. */
// biome-ignore lint/style/noRestrictedGlobals: the one place that touches the browser's storage
export const localStore: SafeStorage = safeStorage(() => localStorage);
