import { type PointerEvent, useRef, useState } from 'react';
import { clampBox, type PageBox, type ScreenBox } from './coords.ts';

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
