// Number animation rules of SPEC §5 and §9, pure so they can be tested without a clock.

/** SPEC §9: default animation length, ms. */
export const COUNT_UP_DURATION_MS = 1000;
/** SPEC §9: about 60 frames a second. */
export const TWEEN_FPS = 60;
export const FRAME_MS = 1000 / TWEEN_FPS;

/** Ease-out quadratic: fast start, gentle stop. t in [0, 1]. */
export const easeOutQuad = (t: number): number => t * (2 - t);

/** Only numbers and numeric strings animate (SPEC §5): returns the number, or null when not numeric. */
export function toAnimatableNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)$/.test(value.trim())) {
    return Number(value.trim());
  }
  return null;
}

/** Colours are accepted as 3- or 6-digit hex only (#abc, #aabbcc). */
export const isHexColor = (value: unknown): value is string =>
  typeof value === 'string' && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(value);

/** The value shown `elapsedMs` into an animation from `start` to `end`; exactly `end` once the time is up. */
export function tweenAt(
  start: number,
  end: number,
  elapsedMs: number,
  durationMs = COUNT_UP_DURATION_MS,
): number {
  if (durationMs <= 0 || elapsedMs >= durationMs) return end;
  return start + (end - start) * easeOutQuad(Math.max(0, elapsedMs) / durationMs);
}
