import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { defineTexts, useTexts } from '@/i18n/i18n-store.ts';
import { PlainButton } from './plain-button.tsx';

// One pad for the whole product: the personal-seal screen and the signing room draw with it.
const texts = defineTexts({
  'en-US': {
    padLabel: 'Signature pad: draw your signature with a finger or the mouse',
    padHint: 'Sign inside the box',
    clear: 'Clear',
    undo: 'Undo',
  },
  'zh-CN': {
    padLabel: '签名板：用手指或鼠标书写您的签名',
    padHint: '请在框内签名',
    clear: '清除',
    undo: '撤销一笔',
  },
});

type Point = { x: number; y: number };
/** The strokes of a drawing, in CSS pixels of the pad: what a screen keeps to show the same drawing again. */
export type PadStrokes = readonly (readonly Point[])[];

export type SignaturePadHandle = {
  /** The drawing as a PNG with a transparent background, or null when nothing is drawn. */
  toPng(): Promise<Blob | null>;
  isEmpty(): boolean;
};

const INK = '#111111';
const LINE_WIDTH = 3;

function drawStroke(ctx: CanvasRenderingContext2D, stroke: readonly Point[]): void {
  if (stroke.length === 0) return;
  ctx.beginPath();
  ctx.moveTo(stroke[0].x, stroke[0].y);
  if (stroke.length === 1) {
    // A tap leaves a dot.
    ctx.arc(stroke[0].x, stroke[0].y, LINE_WIDTH / 2, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  // Through the midpoints with the samples as controls: smooth curves without a library.
  for (let i = 1; i < stroke.length - 1; i++) {
    const mid = { x: (stroke[i].x + stroke[i + 1].x) / 2, y: (stroke[i].y + stroke[i + 1].y) / 2 };
    ctx.quadraticCurveTo(stroke[i].x, stroke[i].y, mid.x, mid.y);
  }
  const last = stroke[stroke.length - 1];
  ctx.lineTo(last.x, last.y);
  ctx.stroke();
}

/**
 * A signature pad that works with a finger on a phone as well as a mouse or pen: pointer events with
 * pointer capture, `touch-action: none` so the page does not scroll while signing, and a canvas backing
 * store of CSS size × devicePixelRatio so strokes stay sharp. Clear and undo; exports a transparent PNG.
 * `initialStrokes` shows a drawing made earlier; `onStrokesChange` hears every finished stroke, undo and clear.
 */
export function SignaturePad({
  ref,
  height = 220,
  initialStrokes,
  onStrokesChange,
}: {
  ref?: Ref<SignaturePadHandle>;
  height?: number;
  initialStrokes?: PadStrokes;
  onStrokesChange?: (strokes: PadStrokes) => void;
}) {
  const tt = useTexts(texts);
  const canvas = useRef<HTMLCanvasElement>(null);
  const strokes = useRef<(readonly Point[])[]>(initialStrokes ? [...initialStrokes] : []);
  const current = useRef<Point[] | null>(null);
  const [count, setCount] = useState(strokes.current.length);
  const changed = () => {
    setCount(strokes.current.length);
    onStrokesChange?.([...strokes.current]);
  };

  const redraw = useCallback(() => {
    const c = canvas.current;
    if (!c) return;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, c.width / dpr, c.height / dpr);
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.lineWidth = LINE_WIDTH;
    ctx.strokeStyle = INK;
    ctx.fillStyle = INK;
    for (const s of strokes.current) drawStroke(ctx, s);
    if (current.current) drawStroke(ctx, current.current);
  }, []);

  // Size the backing store to the element's CSS size × devicePixelRatio, now and whenever it changes.
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const fitToElement = () => {
      const rect = c.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      const w = Math.max(1, Math.round(rect.width * dpr));
      const h = Math.max(1, Math.round(rect.height * dpr));
      if (c.width !== w || c.height !== h) {
        c.width = w;
        c.height = h;
        redraw();
      }
    };
    fitToElement();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(fitToElement);
    observer?.observe(c);
    window.addEventListener('resize', fitToElement);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', fitToElement);
    };
  }, [redraw]);

  const pointOf = (e: React.PointerEvent<HTMLCanvasElement>): Point => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };

  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    current.current = [pointOf(e)];
    redraw();
  };
  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!current.current) return;
    e.preventDefault();
    // Coalesced events carry the samples between frames: fast strokes stay smooth.
    const events = e.nativeEvent.getCoalescedEvents?.() ?? [];
    const rect = e.currentTarget.getBoundingClientRect();
    if (events.length > 0) {
      for (const ev of events) current.current.push({ x: ev.clientX - rect.left, y: ev.clientY - rect.top });
    } else current.current.push(pointOf(e));
    redraw();
  };
  const finish = () => {
    if (!current.current) return;
    strokes.current.push(current.current);
    current.current = null;
    changed();
    redraw();
  };

  const clear = () => {
    strokes.current = [];
    current.current = null;
    changed();
    redraw();
  };
  const undo = () => {
    strokes.current.pop();
    changed();
    redraw();
  };

  useImperativeHandle(
    ref,
    () => ({
      isEmpty: () => strokes.current.length === 0,
      toPng: () =>
        new Promise<Blob | null>((resolve) => {
          const c = canvas.current;
          if (!c || strokes.current.length === 0) return resolve(null);
          // The canvas is never filled, so its background is transparent in the PNG.
          c.toBlob((blob) => resolve(blob), 'image/png');
        }),
    }),
    [],
  );

  return (
    <div>
      <canvas
        ref={canvas}
        role="img"
        aria-label={tt('padLabel')}
        data-strokes={count}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={finish}
        onPointerCancel={finish}
        onLostPointerCapture={finish}
        style={{
          display: 'block',
          width: '100%',
          height,
          touchAction: 'none',
          userSelect: 'none',
          border: '1px dashed #bbb',
          borderRadius: 8,
          background: 'repeating-linear-gradient(0deg, #fff, #fff 43px, #f3f3f3 44px)',
          cursor: 'crosshair',
        }}
      />
      <div style={{ display: 'flex', gap: 8, marginTop: 8, alignItems: 'center' }}>
        <span style={{ color: '#999', flex: 1 }}>{tt('padHint')}</span>
        <PlainButton onClick={undo} disabled={count === 0}>
          {tt('undo')}
        </PlainButton>
        <PlainButton onClick={clear} disabled={count === 0}>
          {tt('clear')}
        </PlainButton>
      </div>
    </div>
  );
}
