// PDF <-> screen coordinates of one page. Positions travel in the unrotated page space of the contract: PDF
// points, origin at the bottom-left of the page box, [x1, y1, x2, y2]. A page shows rotated by its /Rotate
// (clockwise, like pdf.js) and scaled to CSS pixels; overlays are laid out in that rotated, scaled box.

/** The page as the contract describes it (DocumentInfo.pageSizes). */
export type PageBox = { widthPt: number; heightPt: number; rotate: number };
/** [x1, y1, x2, y2] in PDF points, origin bottom-left, unrotated. */
export type PdfRect = [number, number, number, number];
/** A box in CSS pixels from the top-left corner of the displayed (rotated) page. */
export type ScreenBox = { left: number; top: number; width: number; height: number };

/** /Rotate reduced to 0, 90, 180 or 270 (PDF allows any multiple of 90, negative too). */
export function normaliseRotate(rotate: number): 0 | 90 | 180 | 270 {
  const r = (((Math.round(rotate / 90) * 90) % 360) + 360) % 360;
  return r as 0 | 90 | 180 | 270;
}

/** Width and height of the page as displayed (rotated), in points. */
export function displayedSizePt(page: PageBox): { width: number; height: number } {
  const r = normaliseRotate(page.rotate);
  return r === 90 || r === 270
    ? { width: page.heightPt, height: page.widthPt }
    : { width: page.widthPt, height: page.heightPt };
}

/** A point of the unrotated page (points, origin bottom-left) to the displayed page (points, origin top-left). */
function pdfPointToDisplayed(page: PageBox, x: number, y: number): { u: number; v: number } {
  const { widthPt: w, heightPt: h } = page;
  switch (normaliseRotate(page.rotate)) {
    case 90:
      return { u: y, v: x };
    case 180:
      return { u: w - x, v: y };
    case 270:
      return { u: h - y, v: w - x };
    default:
      return { u: x, v: h - y };
  }
}

/** The inverse of pdfPointToDisplayed. */
function displayedPointToPdf(page: PageBox, u: number, v: number): { x: number; y: number } {
  const { widthPt: w, heightPt: h } = page;
  switch (normaliseRotate(page.rotate)) {
    case 90:
      return { x: v, y: u };
    case 180:
      return { x: w - u, y: v };
    case 270:
      return { x: w - v, y: h - u };
    default:
      return { x: u, y: h - v };
  }
}

/** A PDF rectangle to a CSS box on the page displayed at `scale` CSS pixels per point. */
export function pdfRectToScreen(page: PageBox, rect: PdfRect, scale: number): ScreenBox {
  const a = pdfPointToDisplayed(page, rect[0], rect[1]);
  const b = pdfPointToDisplayed(page, rect[2], rect[3]);
  const left = Math.min(a.u, b.u);
  const top = Math.min(a.v, b.v);
  return {
    left: left * scale,
    top: top * scale,
    width: Math.abs(a.u - b.u) * scale,
    height: Math.abs(a.v - b.v) * scale,
  };
}

/** A CSS box on the displayed page back to a PDF rectangle (x1 < x2, y1 < y2). */
export function screenBoxToPdf(page: PageBox, box: ScreenBox, scale: number): PdfRect {
  const a = displayedPointToPdf(page, box.left / scale, box.top / scale);
  const b = displayedPointToPdf(page, (box.left + box.width) / scale, (box.top + box.height) / scale);
  return [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)];
}

/**
 * A box of `widthPt` × `heightPt` (as it reads on the screen) centred on a screen point, kept inside the page.
 * What a drop or a tap on a page places.
 */
export function boxCentredAt(
  page: PageBox,
  scale: number,
  point: { x: number; y: number },
  sizePt: { widthPt: number; heightPt: number },
): ScreenBox {
  const shown = displayedSizePt(page);
  const width = Math.min(sizePt.widthPt, shown.width) * scale;
  const height = Math.min(sizePt.heightPt, shown.height) * scale;
  return clampBox({ left: point.x - width / 2, top: point.y - height / 2, width, height }, page, scale);
}

/** Keep a box inside the displayed page (a drag past the edge stops at the edge). */
export function clampBox(box: ScreenBox, page: PageBox, scale: number): ScreenBox {
  const shown = displayedSizePt(page);
  const maxLeft = Math.max(0, shown.width * scale - box.width);
  const maxTop = Math.max(0, shown.height * scale - box.height);
  return {
    ...box,
    left: Math.min(Math.max(0, box.left), maxLeft),
    top: Math.min(Math.max(0, box.top), maxTop),
  };
}

/** The centre of a PDF rectangle (a keyword hit) and a box of the given size around it, in PDF points. */
export function rectCentredOn(hit: PdfRect, widthPt: number, heightPt: number, page: PageBox): PdfRect {
  const cx = (hit[0] + hit[2]) / 2;
  const cy = (hit[1] + hit[3]) / 2;
  // The size is meant as seen on the screen: on a page turned a quarter, width runs along the PDF's y axis.
  const r = normaliseRotate(page.rotate);
  const [w, h] = r === 90 || r === 270 ? [heightPt, widthPt] : [widthPt, heightPt];
  const x1 = Math.min(Math.max(0, cx - w / 2), Math.max(0, page.widthPt - w));
  const y1 = Math.min(Math.max(0, cy - h / 2), Math.max(0, page.heightPt - h));
  return [x1, y1, x1 + Math.min(w, page.widthPt), y1 + Math.min(h, page.heightPt)];
}

/** Zoom limits and steps of the viewer (1 = fit the width). */
export const ZOOM = { min: 0.5, max: 4, step: 0.25 } as const;
export const clampZoom = (z: number) => Math.min(ZOOM.max, Math.max(ZOOM.min, z));

/** The zoom after a pinch that moved two fingers from `startDistance` apart to `distance` apart. */
export function pinchZoom(startZoom: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return startZoom;
  return clampZoom(startZoom * (distance / startDistance));
}
