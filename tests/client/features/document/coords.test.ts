import { describe, expect, it } from 'vitest';
import {
  boxCentredAt,
  clampBox,
  displayedSizePt,
  normaliseRotate,
  type PageBox,
  type PdfRect,
  pdfRectToScreen,
  pinchZoom,
  rectCentredOn,
  screenBoxToPdf,
  ZOOM,
} from '@/components/pdf-viewer/coords.ts';

const A4: PageBox = { widthPt: 595, heightPt: 842, rotate: 0 };
const close = (a: number[], b: number[]) => {
  for (const [i, v] of a.entries()) expect(v).toBeCloseTo(b[i], 6);
};

describe('PDF <-> screen coordinates', () => {
  it('flips the y axis of an upright page and scales by the zoom', () => {
    // A box 100 pt from the left and 50 pt up from the bottom, 80 × 40 pt.
    const rect: PdfRect = [100, 50, 180, 90];
    expect(pdfRectToScreen(A4, rect, 1)).toEqual({ left: 100, top: 752, width: 80, height: 40 });
    expect(pdfRectToScreen(A4, rect, 2)).toEqual({ left: 200, top: 1504, width: 160, height: 80 });
  });

  it('lays a quarter-turned page out sideways, like pdf.js', () => {
    const page = { ...A4, rotate: 90 };
    expect(displayedSizePt(page)).toEqual({ width: 842, height: 595 });
    // Near the bottom-left corner of the unrotated page = near the top-left of the page turned clockwise.
    expect(pdfRectToScreen(page, [0, 0, 10, 20], 1)).toEqual({ left: 0, top: 0, width: 20, height: 10 });
    // Near the top-left of the unrotated page = the top-right after the turn.
    expect(pdfRectToScreen(page, [0, 832, 10, 842], 1)).toEqual({ left: 832, top: 0, width: 10, height: 10 });
    expect(pdfRectToScreen({ ...A4, rotate: 180 }, [0, 0, 10, 20], 1)).toEqual({
      left: 585,
      top: 0,
      width: 10,
      height: 20,
    });
    expect(pdfRectToScreen({ ...A4, rotate: 270 }, [0, 0, 10, 20], 1)).toEqual({
      left: 822,
      top: 585,
      width: 20,
      height: 10,
    });
  });

  it('round-trips every rotation and zoom (what a drag gives is what launchFlow gets)', () => {
    const rect: PdfRect = [123.5, 456.25, 250, 520];
    for (const rotate of [0, 90, 180, 270, -90, 450]) {
      for (const scale of [0.5, 1, 1.37, 3]) {
        const page = { ...A4, rotate };
        close(screenBoxToPdf(page, pdfRectToScreen(page, rect, scale), scale), rect);
      }
    }
    expect(normaliseRotate(-90)).toBe(270);
    expect(normaliseRotate(450)).toBe(90);
  });

  it('centres a dropped box on the pointer and keeps it on the page', () => {
    const box = boxCentredAt(A4, 1, { x: 300, y: 400 }, { widthPt: 100, heightPt: 50 });
    expect(box).toEqual({ left: 250, top: 375, width: 100, height: 50 });
    // Dropped at the corner: pushed back inside.
    expect(boxCentredAt(A4, 2, { x: 0, y: 5000 }, { widthPt: 100, heightPt: 50 })).toEqual({
      left: 0,
      top: 842 * 2 - 100,
      width: 200,
      height: 100,
    });
    expect(clampBox({ left: 590, top: -3, width: 20, height: 20 }, A4, 1)).toEqual({
      left: 575,
      top: 0,
      width: 20,
      height: 20,
    });
  });

  it('centres a keyword box on the hit, turned with the page', () => {
    expect(rectCentredOn([100, 200, 140, 214], 60, 30, A4)).toEqual([90, 192, 150, 222]);
    // On a page shown a quarter turned, the width on the screen runs along the PDF's y axis.
    const turned = rectCentredOn([100, 200, 140, 214], 60, 30, { ...A4, rotate: 90 });
    expect([turned[2] - turned[0], turned[3] - turned[1]]).toEqual([30, 60]);
    // A hit at the edge: the box stays on the page.
    expect(rectCentredOn([580, 830, 595, 842], 60, 30, A4)).toEqual([535, 812, 595, 842]);
  });

  it('zooms with a pinch in proportion to the fingers, within the limits', () => {
    expect(pinchZoom(1, 100, 150)).toBe(1.5);
    expect(pinchZoom(1, 100, 10)).toBe(ZOOM.min);
    expect(pinchZoom(2, 100, 1000)).toBe(ZOOM.max);
    expect(pinchZoom(1.2, 0, 50)).toBe(1.2);
  });
});
