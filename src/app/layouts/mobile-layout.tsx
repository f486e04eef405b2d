import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { installRem, MOBILE_MAX_WIDTH } from '@/lib/rem.ts';

/** Mobile scope: rem sized from the viewport, and the page stops widening at 540 px (SPEC §9). */
export default function MobileLayout() {
  useEffect(() => installRem(), []);
  return (
    <div
      className="mobile-layout"
      // flow-root: a page's top margin stays inside the layout instead of pushing the whole body down
      // (a late layout shift when the page replaces the loading line, and a needless scroll bar).
      // fontSize: the root's size is the rem unit here (a tenth of the width, 37.5 px on a 375 px phone); text that
      // sets no size of its own must not inherit that (it did: the signing room's notices were 37.5 px, and grew
      // after the first paint when the rem was installed).
      style={{
        maxWidth: MOBILE_MAX_WIDTH,
        margin: '0 auto',
        minHeight: '100vh',
        display: 'flow-root',
        fontSize: 16,
      }}
    >
      <Outlet />
    </div>
  );
}
