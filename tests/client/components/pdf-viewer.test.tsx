import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PdfViewer } from '@/components/pdf-viewer.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';

// pdf.js cannot start its worker under jsdom: the document stays "loading", laid out from the page sizes.
vi.mock('@/components/pdf-viewer/load-pdf.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/components/pdf-viewer/load-pdf.ts')>()),
  openPdf: () => new Promise(() => {}),
}));

const A4 = { widthPt: 595, heightPt: 842, rotate: 0 };

afterEach(() => vi.unstubAllGlobals());

describe('PdfViewer', () => {
  it('says "1 page" for one page and "2 pages" for two', () => {
    useI18nStore.getState().setLocale('en-US');
    const { unmount } = render(<PdfViewer url="/doc.pdf" pageSizes={[A4]} />);
    expect(screen.getByText('1 page')).toBeTruthy();
    unmount();
    render(<PdfViewer url="/doc.pdf" pageSizes={[A4, A4]} />);
    expect(screen.getByText('2 pages')).toBeTruthy();
  });

  it('offers pinch zoom only on a touch screen, not on a PC with a mouse', () => {
    useI18nStore.getState().setLocale('en-US');
    vi.stubGlobal('navigator', { ...navigator, maxTouchPoints: 0 });
    const { unmount } = render(<PdfViewer url="/doc.pdf" pageSizes={[A4]} />);
    expect(screen.queryByText('Pinch to zoom')).toBeNull();
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeTruthy();
    unmount();
    vi.stubGlobal('navigator', { ...navigator, maxTouchPoints: 5 });
    render(<PdfViewer url="/doc.pdf" pageSizes={[A4]} />);
    expect(screen.getByText('Pinch to zoom')).toBeTruthy();
  });
});
