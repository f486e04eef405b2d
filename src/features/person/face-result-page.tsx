import { FaceResult } from '#contract/rules/person.ts';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '@/api/http.ts';
import { type FaceAuthResult, getFaceAuthResult } from '@/api/person.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';

/**
 * The face-recognition result routes of SPEC §2. What the URL claims (result, resultFalse, :result) is
 * never trusted: the screen shows what the server decided from the provider's signed callback, and the
 * signing room continues to the server's signUrl only when the server says passed.
 */
export default function FaceResultPage() {
  const tt = useTexts(texts);
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const [answer, setAnswer] = useState<FaceAuthResult | null>(null);
  const [isUnknown, setIsUnknown] = useState(false);
  useEffect(() => {
    getFaceAuthResult({ token }).then(setAnswer, (error) => {
      if (error instanceof ApiError && !error.handled) setIsUnknown(true);
      else showApiError(error);
    });
  }, [token]);
  const view = () => {
    if (isUnknown) return <Result status="warning" title={tt('faceUnknown')} />;
    if (!answer) return <p>{tt('checking')}</p>;
    const title = {
      [FaceResult.Passed]: tt('facePassed'),
      [FaceResult.Failed]: tt('faceFailed'),
      [FaceResult.Pending]: tt('facePending'),
      [FaceResult.Expired]: tt('faceExpired'),
    }[answer.result];
    const isPassed = answer.result === FaceResult.Passed;
    return (
      <Result
        status={isPassed ? 'success' : answer.result === FaceResult.Failed ? 'error' : 'warning'}
        title={title}
        extra={
          isPassed && answer.signUrl ? (
            <Button type="primary" onClick={() => navigate(answer.signUrl!)}>
              {tt('continueSigning')}
            </Button>
          ) : (
            <Button onClick={() => navigate(isPassed ? paths.personalDetails : paths.realNameResult)}>
              {isPassed ? tt('toDetails') : tt('backHome')}
            </Button>
          )
        }
      />
    );
  };
  return (
    <main style={{ padding: 16, maxWidth: 480, margin: '0 auto' }} data-testid="face-result">
      <h1 style={{ fontSize: 20 }}>{tt('faceTitle')}</h1>
      {view()}
    </main>
  );
}
