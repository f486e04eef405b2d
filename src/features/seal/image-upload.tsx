import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useRef, useState } from 'react';
import { useTexts } from '@/i18n/i18n-store.ts';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';

const MAX_BYTES = 5 * 1024 * 1024;

/**
 * Choose a PNG or JPG and upload it. The obvious mistakes (SVG, another file, over 5 MB) are caught here in
 * the user's language before anything is sent; the server checks everything again.
 */
export function ImageUpload({ onUpload }: { onUpload: (file: File) => Promise<void> }) {
  const tt = useTexts(texts);
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    if (!/^image\/(png|jpeg)$/.test(file.type) && !/\.(png|jpe?g)$/i.test(file.name)) {
      setProblem(tt('uploadFormat'));
      return;
    }
    if (file.size > MAX_BYTES) {
      setProblem(tt('uploadSize'));
      return;
    }
    setIsBusy(true);
    try {
      await onUpload(file);
    } catch (error) {
      setProblem(showApiError(error));
    } finally {
      setIsBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div>
      <p style={{ color: '#666' }}>{tt('uploadHint')}</p>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg"
        aria-label={tt('chooseImage')}
        style={{ display: 'none' }}
        onChange={(e) => void choose(e.target.files?.[0])}
      />
      <Button type="primary" loading={isBusy} onClick={() => input.current?.click()}>
        {tt('chooseImage')}
      </Button>
      {problem ? <Alert type="error" title={problem} style={{ marginTop: 12 }} /> : null}
    </div>
  );
}
