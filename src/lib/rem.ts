/** SPEC §9: the mobile layout stops growing past this width (px). */
export const MOBILE_MAX_WIDTH = 540;
/** 1rem is a tenth of the (capped) layout width, so a 375-wide design is 10rem wide. */
const REM_DIVISOR = 10;

export const remFontSize = (viewportWidth: number): number =>
  Math.min(viewportWidth, MOBILE_MAX_WIDTH) / REM_DIVISOR;

/** Size the root font from the viewport while mounted; returns the undo function. */
export function installRem(win: Window = window): () => void {
  const root = win.document.documentElement;
  const previous = root.style.fontSize;
  const apply = () => {
    root.style.fontSize = `${remFontSize(win.innerWidth)}px`;
  };
  apply();
  win.addEventListener('resize', apply);
  win.addEventListener('orientationchange', apply);
  return () => {
    win.removeEventListener('resize', apply);
    win.removeEventListener('orientationchange', apply);
    root.style.fontSize = previous;
  };
}
