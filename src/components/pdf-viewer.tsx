import { type PointerEvent, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { defineTexts, useTexts } from '@/i18n/i18n-store.ts';
import {
  clampBox,
  clampZoom,
  displayedSizePt,
  type PageBox,
  type PdfRect,
  pdfRectToScreen,
  pinchZoom,
  type ScreenBox,
  screenBoxToPdf,
  ZOOM,
} from './pdf-viewer/coords.ts';
import { PlainButton } from './plain-button.tsx';
import { type LoadedPdf, openPdf } from './pdf-viewer/load-pdf.ts';
import { isTouchScreen } from '@/lib/device.ts';

export type { PageBox, PdfRect, ScreenBox } from './pdf-viewer/coords.ts';

const texts = defineTexts({
  'en-US': {
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    fit: 'Fit width',
    loading: 'Loading the document…',
    failed: 'The document could not be shown: {reason}',
    pages: '{total, plural, one {# page} other {# pages}}',
    pinchHint: 'Pinch to zoom',
  },
  'zh-CN': {
    zoomIn: '放大',
    zoomOut: '缩小',
    fit: '适应宽度',
    loading: '正在加载文件…',
    failed: '无法显示文件：{reason}',
    pages: '共 {total} 页',
    pinchHint: '双指缩放',
  },
});

/** One displayed page: its box, how it is scaled, and the conversions its overlay needs. */
export type PageGeometry = {
  /** 1-based. */
  pageNumber: number;
  page: PageBox;
  /** CSS pixels per PDF point. */
  scale: number;
  /** Displayed size in CSS pixels. */
  width: number;
  height: number;
  toScreen: (rect: PdfRect) => ScreenBox;
  toPdf: (box: ScreenBox) => PdfRect;
};

export type PdfViewerProps = {
  /** Authenticated GET download URL (with `ts`; `roomToken` inside a link-login room). */
  url: string;
  /** Page sizes from the server (DocumentInfo.pageSizes): placeholders show before pdf.js has parsed them. */
  pageSizes?: PageBox[];
  /** Positioned boxes over a page, laid out with the page's geometry (signature positions, drop targets). */
  renderOverlay?: (geometry: PageGeometry) => ReactNode;
  /** Height of the scrolling area (CSS). */
  height?: number | string;
  /** Accessible name of the document region. */
  label?: string;
  /** Scroll to this 1-based page whenever it changes. */
  scrollToPage?: number;
  /**
   * Bring this box of a page to the middle of the view once the pages are laid out, and again whenever `seq`
   * changes (the signing room's first position on opening, then "next position").
   */
  scrollToRect?: { page: number; rect: PdfRect; seq: number };
};

const PAGE_GAP = 12;

function geometryOf(pageNumber: number, page: PageBox, scale: number): PageGeometry {
  const shown = displayedSizePt(page);
  return {
    pageNumber,
    page,
    scale,
    width: shown.width * scale,
    height: shown.height * scale,
    toScreen: (rect) => pdfRectToScreen(page, rect, scale),
    toPdf: (box) => screenBoxToPdf(page, box, scale),
  };
}

async function pageBoxesOf(doc: PDFDocumentProxy): Promise<PageBox[]> {
  const boxes: PageBox[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const p = await doc.getPage(i);
    const [x0, y0, x1, y1] = p.view;
    boxes.push({ widthPt: x1 - x0, heightPt: y1 - y0, rotate: p.rotate });
  }
  return boxes;
}

/** A page: a placeholder of the right size, drawn into a canvas only once it scrolls near the view. */
function PdfPage({
  doc,
  geometry,
  isVisible,
  overlay,
}: {
  doc: PDFDocumentProxy | null;
  geometry: PageGeometry;
  isVisible: boolean;
  overlay: ReactNode;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [isDrawn, setIsDrawn] = useState(false);
  const { pageNumber, scale, width, height } = geometry;

  useEffect(() => {
    if (!doc || !isVisible || !canvas.current) return;
    let task: RenderTask | null = null;
    let isCancelled = false;
    void (async () => {
      try {
        const page = await doc.getPage(pageNumber);
        if (isCancelled || !canvas.current) return;
        // Backing store = CSS size × devicePixelRatio: sharp on phones without drawing more than is seen.
        const dpr = Math.min(window.devicePixelRatio || 1, 3);
        const viewport = page.getViewport({ scale: scale * dpr });
        const c = canvas.current;
        c.width = Math.floor(viewport.width);
        c.height = Math.floor(viewport.height);
        task = page.render({ canvas: c, viewport });
        await task.promise;
        if (!isCancelled) setIsDrawn(true);
      } catch {
        // a cancelled render (scrolled away, zoomed again) or a page pdf.js cannot draw: the placeholder stays
      }
    })();
    return () => {
      isCancelled = true;
      task?.cancel();
    };
  }, [doc, isVisible, pageNumber, scale]);

  return (
    <div
      className="pdf-page"
      data-page={pageNumber}
      data-drawn={isDrawn ? 'true' : 'false'}
      style={{
        position: 'relative',
        width,
        height,
        margin: `0 auto ${PAGE_GAP}px`,
        background: '#fff',
        boxShadow: '0 1px 4px rgba(0,0,0,0.18)',
      }}
    >
      <canvas ref={canvas} style={{ position: 'absolute', inset: 0, width, height, display: 'block' }} />
      <div className="pdf-overlay" style={{ position: 'absolute', inset: 0 }}>
        {overlay}
      </div>
    </div>
  );
}

/**
 * A PDF rendered with pdf.js: pages drawn lazily as they scroll into view, canvases sized for the device's
 * pixel ratio, zoom buttons on PC and pinch zoom on touch screens, and an overlay per page where children
 * place boxes in PDF coordinates (signature positions, drop targets).
 */
export function PdfViewer({
  url,
  pageSizes,
  renderOverlay,
  height = '70vh',
  label,
  scrollToPage,
  scrollToRect,
}: PdfViewerProps) {
  const tt = useTexts(texts);
  // A mouse cannot pinch: the hint is for touch screens only (the zoom buttons serve both).
  const [isTouch] = useState(isTouchScreen);
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState<LoadedPdf | null>(null);
  const [boxes, setBoxes] = useState<PageBox[]>(pageSizes ?? []);
  const [error, setError] = useState<string | null>(null);
  const [containerWidth, setContainerWidth] = useState(0);
  const [zoom, setZoom] = useState(1);
  const [visible, setVisible] = useState<Set<number>>(() => new Set());

  // pageSizes is read once per document: a new array with the same sizes must not reload the file.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL alone names the document
  useEffect(() => {
    let isCurrent = true;
    let opened: LoadedPdf | null = null;
    setError(null);
    setLoaded(null);
    openPdf(url)
      .then(async (pdf) => {
        opened = pdf;
        if (!isCurrent) return pdf.destroy();
        if (!pageSizes) setBoxes(await pageBoxesOf(pdf.doc));
        setLoaded(pdf);
      })
      .catch((e: unknown) => {
        if (isCurrent) setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      isCurrent = false;
      void opened?.destroy();
    };
  }, [url]);

  useEffect(() => {
    if (pageSizes) setBoxes(pageSizes);
  }, [pageSizes]);

  // Fit to the width of the scrolling area, now and whenever it changes (rotation of a phone, resize).
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setContainerWidth(el.clientWidth);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);

  const maxWidthPt = useMemo(() => Math.max(1, ...boxes.map((b) => displayedSizePt(b).width)), [boxes]);
  const fitScale = containerWidth > 0 ? Math.max(0.1, (containerWidth - 2 * PAGE_GAP) / maxWidthPt) : 1;
  const scale = fitScale * zoom;

  // Lazy drawing: a page is drawn once it comes within a screen of the view.
  useEffect(() => {
    const root = scroller.current;
    if (!root || boxes.length === 0) return;
    if (typeof IntersectionObserver === 'undefined') {
      setVisible(new Set(boxes.map((_, i) => i + 1)));
      return;
    }
    const observer = new IntersectionObserver(
      (entries) =>
        setVisible((prev) => {
          const next = new Set(prev);
          for (const e of entries) {
            const n = Number((e.target as HTMLElement).dataset.page);
            if (e.isIntersecting) next.add(n);
            else next.delete(n);
          }
          return next;
        }),
      { root, rootMargin: '100% 0px' },
    );
    for (const el of root.querySelectorAll('.pdf-page')) observer.observe(el);
    return () => observer.disconnect();
  }, [boxes]);

  const changeZoom = useCallback((next: number) => {
    const el = scroller.current;
    setZoom((old) => {
      const z = clampZoom(next);
      // Keep the same part of the document in view.
      if (el && old !== z) {
        const ratio = z / old;
        requestAnimationFrame(() => {
          el.scrollTop *= ratio;
          el.scrollLeft *= ratio;
        });
      }
      return z;
    });
  }, []);

  // Pinch zoom with two fingers: one finger still scrolls (touch-action pan-x pan-y), a second one turns the
  // gesture into a pinch — the browser's own panning is stopped for it (a non-passive touchmove), the content
  // scales live with a CSS transform, and pages are redrawn at the new size when the fingers lift.
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let pinch: { distance: number; zoom: number; live: number } | null = null;
    const spread = (t: TouchList) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
    const onStart = (e: TouchEvent) => {
      if (e.touches.length === 2)
        pinch = { distance: spread(e.touches), zoom: zoomRef.current, live: zoomRef.current };
    };
    const onMove = (e: TouchEvent) => {
      if (!pinch || e.touches.length !== 2 || !content.current) return;
      e.preventDefault();
      pinch.live = pinchZoom(pinch.zoom, pinch.distance, spread(e.touches));
      content.current.style.transformOrigin = 'top center';
      content.current.style.transform = `scale(${pinch.live / pinch.zoom})`;
    };
    const onEnd = (e: TouchEvent) => {
      if (!pinch || e.touches.length >= 2) return;
      const done = pinch;
      pinch = null;
      if (content.current) content.current.style.transform = '';
      changeZoom(done.live);
    };
    el.addEventListener('touchstart', onStart, { passive: true });
    el.addEventListener('touchmove', onMove, { passive: false });
    el.addEventListener('touchend', onEnd);
    el.addEventListener('touchcancel', onEnd);
    return () => {
      el.removeEventListener('touchstart', onStart);
      el.removeEventListener('touchmove', onMove);
      el.removeEventListener('touchend', onEnd);
      el.removeEventListener('touchcancel', onEnd);
    };
  }, [changeZoom]);

  // Once per target (its seq), when the pages have their final size: a box in the middle of the view.
  const scrolledSeq = useRef<number | null>(null);
  useEffect(() => {
    const root = scroller.current;
    if (!scrollToRect || !root || containerWidth === 0 || scrolledSeq.current === scrollToRect.seq) return;
    const box = boxes[scrollToRect.page - 1];
    const el = root.querySelector<HTMLElement>(`.pdf-page[data-page="${scrollToRect.page}"]`);
    if (!box || !el) return;
    scrolledSeq.current = scrollToRect.seq;
    const shown = geometryOf(scrollToRect.page, box, scale).toScreen(scrollToRect.rect);
    const rootBox = root.getBoundingClientRect();
    const pageBox = el.getBoundingClientRect();
    const pageTop = pageBox.top - rootBox.top + root.scrollTop;
    const pageLeft = pageBox.left - rootBox.left + root.scrollLeft;
    root.scrollTop = Math.max(0, pageTop + shown.top - (root.clientHeight - shown.height) / 2);
    root.scrollLeft = Math.max(0, pageLeft + shown.left - (root.clientWidth - shown.width) / 2);
  }, [scrollToRect, containerWidth, boxes, scale]);

  useEffect(() => {
    if (!scrollToPage || !scroller.current) return;
    const el = scroller.current.querySelector<HTMLElement>(`.pdf-page[data-page="${scrollToPage}"]`);
    if (el) scroller.current.scrollTop = el.offsetTop - PAGE_GAP;
  }, [scrollToPage]);

  return (
    <section className="pdf-viewer" aria-label={label} style={{ position: 'relative' }}>
      <div
        className="pdf-toolbar"
        style={{ display: 'flex', gap: 8, alignItems: 'center', justifyContent: 'flex-end', marginBottom: 8 }}
      >
        <span style={{ color: '#999', marginRight: 'auto', fontSize: 12 }}>
          {boxes.length > 0 ? tt('pages', { total: boxes.length }) : ''}
        </span>
        {isTouch ? (
          <span className="pdf-pinch-hint" style={{ color: '#999', fontSize: 12 }}>
            {tt('pinchHint')}
          </span>
        ) : null}
        <PlainButton size="small" aria-label={tt('zoomOut')} onClick={() => changeZoom(zoom - ZOOM.step)}>
          −
        </PlainButton>
        <PlainButton size="small" onClick={() => changeZoom(1)}>
          {Math.round(zoom * 100)}%
        </PlainButton>
        <PlainButton size="small" aria-label={tt('zoomIn')} onClick={() => changeZoom(zoom + ZOOM.step)}>
          +
        </PlainButton>
      </div>
      <div
        ref={scroller}
        className="pdf-scroller"
        data-zoom={zoom}
        style={{
          height,
          overflow: 'auto',
          background: '#f0f2f5',
          padding: `${PAGE_GAP}px 0`,
          touchAction: 'pan-x pan-y',
          WebkitOverflowScrolling: 'touch',
        }}
      >
        {error ? (
          <div role="alert" style={{ padding: 24, color: '#c00' }}>
            {tt('failed', { reason: error })}
          </div>
        ) : boxes.length === 0 ? (
          <div style={{ padding: 24, color: '#999' }}>{tt('loading')}</div>
        ) : (
          <div ref={content} style={{ minWidth: 'min-content', padding: `0 ${PAGE_GAP}px` }}>
            {boxes.map((box, i) => {
              const geometry = geometryOf(i + 1, box, scale);
              return (
                <PdfPage
                  // biome-ignore lint/suspicious/noArrayIndexKey: a page is its position in the document
                  key={`${i + 1}`}
                  doc={loaded?.doc ?? null}
                  geometry={geometry}
                  isVisible={visible.has(i + 1)}
                  overlay={renderOverlay?.(geometry)}
                />
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * Dragging a box on a page overlay with mouse, pen or finger (pointer capture: the box follows outside its
 * own area), kept inside the page. `shown` is where to draw it now; `onMove` gets the new box when the
 * pointer is released (no drag without it). A press on a button inside the box (its ×) does not drag.
 */
export function useDragBox(
  box: ScreenBox,
  geometry: { page: PageBox; scale: number },
  onMove?: (box: ScreenBox) => void,
) {
  const start = useRef<{ x: number; y: number; box: ScreenBox } | null>(null);
  const [live, setLive] = useState<ScreenBox | null>(null);
  const handlers = {
    onPointerDown: (e: PointerEvent<HTMLElement>) => {
      if (!onMove || (e.target as HTMLElement).closest('button')) return;
      e.stopPropagation();
      e.currentTarget.setPointerCapture?.(e.pointerId);
      start.current = { x: e.clientX, y: e.clientY, box };
    },
    onPointerMove: (e: PointerEvent<HTMLElement>) => {
      const s = start.current;
      if (!s) return;
      setLive(
        clampBox(
          { ...s.box, left: s.box.left + e.clientX - s.x, top: s.box.top + e.clientY - s.y },
          geometry.page,
          geometry.scale,
        ),
      );
    },
    onPointerUp: () => {
      if (live && onMove) onMove(live);
      start.current = null;
      setLive(null);
    },
    onClick: (e: { stopPropagation: () => void }) => e.stopPropagation(),
  };
  return { shown: live ?? box, handlers };
}

/** Where a click or drop fell on a page overlay, in the page's own pixels (a pinch in progress may scale it). */
export function pointIn(e: { currentTarget: HTMLElement; clientX: number; clientY: number }) {
  const r = e.currentTarget.getBoundingClientRect();
  const sx = r.width > 0 ? e.currentTarget.offsetWidth / r.width : 1;
  const sy = r.height > 0 ? e.currentTarget.offsetHeight / r.height : 1;
  return { x: (e.clientX - r.left) * sx, y: (e.clientY - r.top) * sy };
}
