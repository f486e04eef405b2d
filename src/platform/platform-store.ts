import { PlatformCode } from '#contract/enums.ts';
import { create } from 'zustand';
import { sessionStore } from '@/lib/safe-storage.ts';
import { type PlatformEntry, platformEntry } from './platforms.ts';

/** Session-storage key of the platform code taken from the `fromPtCode` query (SPEC §2). */
const PLATFORM_CODE_KEY = 'fromPtCode';

export function storedPlatformCode(): string {
  return sessionStore.getItem(PLATFORM_CODE_KEY) || PlatformCode.Default;
}

type PlatformState = {
  /** The raw code as given (may be unknown); `entry` is what layouts read. */
  code: string;
  entry: PlatformEntry;
  setCode: (code: string) => void;
};

export const usePlatformStore = create<PlatformState>((set) => ({
  code: storedPlatformCode(),
  entry: platformEntry(storedPlatformCode()),
  setCode: (code) => {
    sessionStore.setItem(PLATFORM_CODE_KEY, code);
    set({ code, entry: platformEntry(code) });
  },
}));

/** Read `fromPtCode` from a query string, keep it in session storage, return the code in force. */
export function syncPlatformFromQuery(search: string): string {
  const fromQuery = new URLSearchParams(search).get(PLATFORM_CODE_KEY);
  const state = usePlatformStore.getState();
  if (fromQuery && fromQuery !== state.code) state.setCode(fromQuery);
  else if (fromQuery) sessionStore.setItem(PLATFORM_CODE_KEY, fromQuery);
  return usePlatformStore.getState().code;
}
