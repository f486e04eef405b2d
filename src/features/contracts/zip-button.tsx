import Button from 'antd/es/button';
import Progress from 'antd/es/progress';
import { useEffect, useState } from 'react';
import { type ContractsZip, contractsZipUrl, getContractsZip, startContractsZip } from '@/api/centre.ts';
import { showApiError } from '@/api/http.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { texts } from './texts.ts';

const POLL_MS = 1500;

/** "Download (zip)" of the selection: ready at once for a few, else its progress until the job is done. */
export function ZipButton({ flowIds }: { flowIds: string[] }) {
  const tt = useTexts(texts);
  const [zip, setZip] = useState<ContractsZip | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  useEffect(() => {
    if (zip?.status !== 'building') return;
    const timer = setTimeout(() => {
      getContractsZip({ zipId: zip.zipId }).then(setZip, showApiError);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [zip]);

  const start = async () => {
    setIsBusy(true);
    try {
      setZip(await startContractsZip({ flowIds }));
    } catch (e) {
      showApiError(e);
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
      <Button data-testid="zip-selected" loading={isBusy} onClick={start}>
        {tt('download')}
      </Button>
      {zip?.status === 'building' && (
        <span data-testid="zip-progress" style={{ minWidth: 160 }}>
          {tt('preparing', { done: zip.done, total: zip.total })}
          <Progress percent={Math.round((100 * zip.done) / Math.max(1, zip.total))} size="small" />
        </span>
      )}
      {zip?.status === 'ready' && (
        <a data-testid="zip-download" href={contractsZipUrl(zip.zipId)} download>
          {tt('downloadZip')} ({tt('zipReady', { n: zip.total })})
        </a>
      )}
      {zip?.status === 'failed' && <span style={{ color: '#cf1322' }}>{tt('zipFailed')}</span>}
      {zip?.status === 'expired' && <span style={{ color: '#999' }}>{tt('zipExpired')}</span>}
    </span>
  );
}
