import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Steps from 'antd/es/steps';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { PdfViewer } from '@/components/pdf-viewer.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { runBridgeAction } from '@/lib/native-bridge.ts';
import { miscTexts } from './texts.ts';

/** Bundled with the app (public/demo): the demo never calls the server. */
export const DEMO_PDF_URL = 'demo/sample-contract.pdf';
export const DEMO_SEAL_URL = 'demo/demo-seal.svg';
/** Size of the demo seal on the page, in PDF points (42 mm, a usual company seal). */
const SEAL_PT = 119;

type Placement = { page: number; left: number; top: number };

/**
 * /pages/index: a read-only walkthrough of the signing room on a bundled sample contract, no login. The
 * visitor reads, clicks where the seal goes (a fake seal is drawn there, nothing is stamped into the PDF)
 * and "signs", which only shows what would happen next. Inside the mobile app the seal image can be saved
 * through the native bridge.
 */
export default function DemoPage() {
  const tt = useTexts(miscTexts);
  const [placement, setPlacement] = useState<Placement | null>(null);
  const [isDone, setIsDone] = useState(false);
  const step = isDone ? 2 : placement ? 2 : 1;

  if (isDone) {
    return (
      <main style={{ maxWidth: 720, margin: '0 auto', padding: 16 }}>
        <Result
          status="success"
          title={tt('demoDone')}
          subTitle={tt('demoDoneText')}
          extra={[
            <Button
              key="again"
              onClick={() => {
                setPlacement(null);
                setIsDone(false);
              }}
            >
              {tt('demoAgain')}
            </Button>,
            <Link key="register" to={paths.registerPage}>
              <Button type="primary">{tt('register')}</Button>
            </Link>,
          ]}
        />
      </main>
    );
  }

  return (
    <main style={{ maxWidth: 900, margin: '0 auto', padding: 12, display: 'grid', gap: 12 }}>
      <h1 style={{ fontSize: 22, margin: 0 }}>{tt('demoTitle')}</h1>
      <p style={{ margin: 0, color: '#666' }}>{tt('demoIntro')}</p>
      <Steps
        size="small"
        current={step}
        items={[{ title: tt('demoStep1') }, { title: tt('demoStep2') }, { title: tt('demoStep3') }]}
      />
      <p role="status" style={{ margin: 0 }}>
        {placement ? tt('demoPlaced', { page: placement.page }) : tt('demoPlaceHint')}
      </p>
      <PdfViewer
        url={DEMO_PDF_URL}
        label={tt('demoDocument')}
        height="60vh"
        renderOverlay={(g) => (
          <button
            type="button"
            aria-label={`${tt('demoStep2')} · ${g.pageNumber}`}
            data-testid={`demo-page-${g.pageNumber}`}
            onClick={(e) => {
              const box = e.currentTarget.getBoundingClientRect();
              const size = SEAL_PT * g.scale;
              const left = Math.min(Math.max(e.clientX - box.left - size / 2, 0), g.width - size);
              const top = Math.min(Math.max(e.clientY - box.top - size / 2, 0), g.height - size);
              // Kept in PDF points so the seal stays put when the viewer zooms.
              setPlacement({ page: g.pageNumber, left: left / g.scale, top: top / g.scale });
            }}
            style={{
              position: 'absolute',
              inset: 0,
              background: 'transparent',
              border: 0,
              cursor: 'crosshair',
              padding: 0,
            }}
          >
            {placement?.page === g.pageNumber && (
              <img
                src={DEMO_SEAL_URL}
                alt={tt('demoSeal')}
                data-testid="demo-seal"
                style={{
                  position: 'absolute',
                  left: placement.left * g.scale,
                  top: placement.top * g.scale,
                  width: SEAL_PT * g.scale,
                  height: SEAL_PT * g.scale,
                  opacity: 0.85,
                  pointerEvents: 'none',
                }}
              />
            )}
          </button>
        )}
      />
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <Button type="primary" disabled={!placement} onClick={() => setIsDone(true)}>
          {tt('demoSign')}
        </Button>
        <Button
          onClick={() =>
            void runBridgeAction((b) =>
              b.downloadImage(new URL(DEMO_SEAL_URL, window.location.href).toString()),
            )
          }
        >
          {tt('demoSaveSeal')}
        </Button>
      </div>
    </main>
  );
}
