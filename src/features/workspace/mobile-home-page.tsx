import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { nativeBridge, runBridgeAction } from '@/lib/native-bridge.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { HomeFigures, InProgressPreview, LoadProblem, PendingPreview } from './home-parts.tsx';
import { workspaceTexts } from './texts.ts';
import { useHomeData, useOpenRoom } from './use-home-data.ts';

/**
 * /mobileHome: the workspace home on a phone (375 px and up) — the same figures and previews in one column,
 * quick launch, and inside the mobile app's web view a Close button (the native bridge).
 */
export default function MobileHomePage() {
  const tt = useTexts(workspaceTexts);
  const info = useSessionStore((s) => s.userInfo);
  const { data, problem, reload } = useHomeData();
  const openRoom = useOpenRoom();
  const [isInApp, setIsInApp] = useState(false);
  useEffect(() => {
    const bridge = nativeBridge();
    setIsInApp(bridge.hasNative());
  }, []);
  const who = info?.userType === 1 ? info.companyName : (info?.name ?? info?.phone);

  return (
    <main style={{ padding: 12, display: 'grid', gap: 12, maxWidth: 540, margin: '0 auto' }}>
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
        <h1 style={{ fontSize: 20, margin: 0 }}>{who ? tt('welcome', { name: who }) : tt('mobileTitle')}</h1>
        {isInApp && (
          <Button onClick={() => void runBridgeAction((b) => b.closeWebView())}>{tt('close')}</Button>
        )}
      </header>
      {problem && <LoadProblem problem={problem} onRetry={() => void reload()} />}
      {!data && !problem && <Skeleton active />}
      {data && (
        <>
          <HomeFigures data={data} />
          <Link to={paths.manageQuicklyFileUpload}>
            <Button type="primary" block size="large">
              {tt('quickLaunch')}
            </Button>
          </Link>
          {/* A company member's seal-use approvals (issue 27): to decide, or asked for. */}
          {info?.userType === 1 ? (
            <Link to={paths.mobileApprovals}>
              <Button block size="large">
                {tt('approvals')}
              </Button>
            </Link>
          ) : null}
          <PendingPreview
            items={data.pending.list}
            allLink={paths.mobileSignList}
            onOpen={(r) => void openRoom(r)}
          />
          <InProgressPreview items={data.inProgress.list} allLink={`${paths.mobileSignList}?tab=launched`} />
        </>
      )}
    </main>
  );
}
