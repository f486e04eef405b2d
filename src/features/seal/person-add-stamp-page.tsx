import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Tabs from 'antd/es/tabs';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { previewSeal, savePersonImageSeal, savePersonSeal } from '@/api/seal.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { ImageUpload } from './image-upload.tsx';
import { MESSAGE_MS, SealStyles } from './parts.tsx';
import { SignaturePad, type SignaturePadHandle } from '@/components/signature-pad.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { refreshLoginInfo } from '@/api/session.ts';

/** Name seal: the preview of the seal the verified name gives, or why there is none yet. */
function NameSeal({ onSaved }: { onSaved: () => Promise<void> }) {
  const tt = useTexts(texts);
  const [svg, setSvg] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  useEffect(() => {
    previewSeal({ sealDTO: { userType: 0 } })
      .then((res) => setSvg(res.svg))
      .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
  }, []);
  const save = async () => {
    setIsSaving(true);
    try {
      await savePersonSeal({ sealDTO: { userType: 0 } });
      await onSaved();
    } catch (error) {
      setProblem(showApiError(error));
    } finally {
      setIsSaving(false);
    }
  };
  return (
    <div style={{ maxWidth: 480 }}>
      <div className="seal-preview">
        {svg ? (
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
            alt={tt('preview')}
            style={{ width: 120 }}
          />
        ) : problem ? (
          <Alert type="warning" title={problem} />
        ) : (
          <span style={{ color: '#999' }}>{tt('loading')}</span>
        )}
      </div>
      <Button type="primary" style={{ marginTop: 12 }} disabled={!svg} loading={isSaving} onClick={save}>
        {tt('generate')}
      </Button>
    </div>
  );
}

function DrawSignature({ onSaved }: { onSaved: () => Promise<void> }) {
  const tt = useTexts(texts);
  const pad = useRef<SignaturePadHandle>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const save = async () => {
    setProblem(null);
    const png = await pad.current?.toPng();
    if (!png) {
      setProblem(tt('padEmpty'));
      return;
    }
    setIsSaving(true);
    try {
      await savePersonImageSeal(png, 'drawn');
      await onSaved();
    } catch (error) {
      setProblem(showApiError(error));
    } finally {
      setIsSaving(false);
    }
  };
  return (
    <div style={{ maxWidth: 640 }}>
      <SignaturePad ref={pad} />
      {problem ? <Alert type="error" title={problem} style={{ marginTop: 12 }} /> : null}
      <Button type="primary" block style={{ marginTop: 12 }} loading={isSaving} onClick={save}>
        {tt('saveSignature')}
      </Button>
    </div>
  );
}

/** /manage/account/stamp/person/personAddStamp: a name seal, a signature drawn on the pad, or an image. */
export default function PersonAddStampPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const onSaved = async () => {
    notify.success(tt('saved'), MESSAGE_MS);
    await refreshLoginInfo();
    navigate(paths.accountStampPerson);
  };
  return (
    <main className="seal-page">
      <SealStyles />
      <h1>{tt('addPersonSeal')}</h1>
      <div className="seal-toolbar">
        <Button onClick={() => navigate(paths.accountStampPerson)}>{tt('back')}</Button>
      </div>
      <Tabs
        items={[
          { key: 'name', label: tt('nameSealTab'), children: <NameSeal onSaved={onSaved} /> },
          { key: 'draw', label: tt('drawTab'), children: <DrawSignature onSaved={onSaved} /> },
          {
            key: 'upload',
            label: tt('uploadTab'),
            children: (
              <div style={{ maxWidth: 520 }}>
                <ImageUpload
                  onUpload={async (file) => {
                    await savePersonImageSeal(file, 'uploaded');
                    await onSaved();
                  }}
                />
              </div>
            ),
          },
        ]}
      />
    </main>
  );
}
