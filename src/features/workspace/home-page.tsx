import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { mayLaunch } from '@/session/may-launch.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { HomeFigures, InProgressPreview, LoadProblem, PendingPreview } from './home-parts.tsx';
import { workspaceTexts } from './texts.ts';
import { useHomeData, useOpenRoom } from './use-home-data.ts';

/** /manage/home: the workspace home on PC — pending, in progress, signings left, quick launch. */
export default function HomePage() {
  const tt = useTexts(workspaceTexts);
  const info = useSessionStore((s) => s.userInfo);
  const { data, problem, reload } = useHomeData();
  const openRoom = useOpenRoom();
  const who = info?.userType === 1 ? info.companyName : (info?.name ?? info?.phone);

  return (
    <main style={{ padding: 24, maxWidth: 1100, display: 'grid', gap: 16 }}>
      <header
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          flexWrap: 'wrap',
          gap: 8,
        }}
      >
        <h1 style={{ fontSize: 24, margin: 0 }}>{who ? tt('welcome', { name: who }) : tt('homeTitle')}</h1>
        <span style={{ display: 'flex', gap: 8 }}>
          <Link to={paths.manageStartup}>
            <Button>{tt('startupLink')}</Button>
          </Link>
          {/* Both launches: quick (one file, 7 days) and regular (steps, deadline, reminders, message); not for
              a company member without the handler role (issue 27). */}
          {!info || mayLaunch(info) ? (
            <>
              <Link to={paths.manageFileUpload}>
                <Button>{tt('regularLaunch')}</Button>
              </Link>
              <Link to={paths.manageQuicklyFileUpload}>
                <Button type="primary">{tt('quickLaunch')}</Button>
              </Link>
            </>
          ) : null}
        </span>
      </header>
      {problem && <LoadProblem problem={problem} onRetry={() => void reload()} />}
      {!data && !problem && <Skeleton active />}
      {data && (
        <>
          <HomeFigures data={data} />
          <div
            style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))', gap: 16 }}
          >
            <PendingPreview
              items={data.pending.list}
              allLink={paths.pcSignList}
              onOpen={(r) => void openRoom(r)}
            />
            <InProgressPreview items={data.inProgress.list} allLink={`${paths.pcSignList}?tab=launched`} />
          </div>
        </>
      )}
    </main>
  );
}
