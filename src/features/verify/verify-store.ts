import { create } from 'zustand';
import type { PlatformDocument, VerifyResult } from '@/api/verify.ts';

/** The verification on screen: its sub-views (summary, signatures, chain, document) all show this one. */
export type CurrentVerification = {
  result: VerifyResult;
  document: PlatformDocument | null;
  /** Where pdf.js reads the file: a blob: URL of the user's own file, or the platform copy; null if unknown. */
  pdfUrl: string | null;
};

type VerifyState = {
  current: CurrentVerification | null;
  /** The signature (1-based index) last picked on the page or in the document. */
  selected: number | null;
  show: (current: CurrentVerification) => void;
  setPdfUrl: (url: string) => void;
  select: (index: number | null) => void;
  clear: () => void;
};

const release = (url: string | null | undefined) => {
  if (url?.startsWith('blob:')) URL.revokeObjectURL(url);
};

/** UI state only: the server keeps the report (an hour), the browser keeps the user's file while it is open. */
export const useVerifyStore = create<VerifyState>((set, get) => ({
  current: null,
  selected: null,
  show: (current) => {
    const old = get().current?.pdfUrl;
    if (old !== current.pdfUrl) release(old);
    set({ current, selected: null });
  },
  setPdfUrl: (url) => {
    const c = get().current;
    if (!c) return;
    release(c.pdfUrl);
    set({ current: { ...c, pdfUrl: url } });
  },
  select: (index) => set({ selected: index }),
  clear: () => {
    release(get().current?.pdfUrl);
    set({ current: null, selected: null });
  },
}));
