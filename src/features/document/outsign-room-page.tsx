import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { placeField, useLaunchDraft } from './launch-draft.ts';
import { PositionEditor } from './position-editor.tsx';
import { texts } from './texts.ts';

/**
 * /pc/v1/outsignRoom and /pc/v1/tempOutsignRoom: the full-screen position editor of the launch being prepared
 * (the draft of /manage/home/quicklyFileUpload or fileUpload); Done returns to its review step.
 */
export default function OutsignRoomPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const { draft, update } = useLaunchDraft();
  const launchPath = draft.mode === 'regular' ? paths.manageFileUpload : paths.manageQuicklyFileUpload;
  if (draft.documents.length === 0) {
    return (
      <Result
        status="info"
        title={tt('noDraft')}
        extra={
          <Button type="primary" onClick={() => navigate(launchPath)}>
            {tt('toLaunch')}
          </Button>
        }
      />
    );
  }
  return (
    <main style={{ padding: 16 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
        <h1 style={{ fontSize: 20, flex: 1 }}>
          {tt('stepPositions')} · {draft.title}
        </h1>
        <Button type="primary" onClick={() => navigate(`${launchPath}?step=3`)}>
          {tt('done')}
        </Button>
      </div>
      <PositionEditor
        draft={draft}
        height="calc(100vh - 160px)"
        onChange={(placements) => update((d) => ({ ...d, placements }))}
        onFieldPlaced={(party, field, at) => update((d) => placeField(d, party, field, at))}
      />
    </main>
  );
}
