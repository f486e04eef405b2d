import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useNavigate } from 'react-router-dom';
import { startFaceAuth } from '@/api/person.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { DevProviderNotice, useOpenStatus } from './parts.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';

/** /realName/result: what the server says about the real-name check, and where to go next. */
export default function RealNameResultPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const { status, isLoading } = useOpenStatus();
  if (isLoading) return <main style={{ padding: 16 }}>{tt('checking')}</main>;
  const isDone = Boolean(status?.isRealNameDone);
  const startFace = async () => {
    try {
      const { url } = await startFaceAuth({ openFlag: 'openAccount', deviceType: 'h5' });
      window.location.assign(url);
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <main style={{ padding: 16, maxWidth: 480, margin: '0 auto' }}>
      <DevProviderNotice isDevelopment={status?.identityProvider.isDevelopment} />
      <Result
        status={isDone ? 'success' : 'warning'}
        title={isDone ? tt('resultPassed') : tt('resultNotPassed')}
        extra={
          isDone
            ? [
                <Button key="next" type="primary" onClick={() => navigate(paths.mobileOpenAccountVerify)}>
                  {tt('next')}
                </Button>,
                <Button key="face" onClick={startFace}>
                  {tt('faceStart')}
                </Button>,
              ]
            : [
                <Button key="again" type="primary" onClick={() => navigate(paths.realName)}>
                  {tt('realNameTitle')}
                </Button>,
              ]
        }
      />
    </main>
  );
}
