import Button from 'antd/es/button';
import { useId, useRef } from 'react';
import { type CompanyApply, powerOfAttorneyUrl, uploadPowerOfAttorney } from '@/api/company.ts';
import { PhotoViewer } from '@/components/photo-viewer.tsx';
import { notify } from '@/lib/notify.ts';
import { letterProblem, useAction, useCompanyTexts } from './parts.tsx';

/**
 * The power-of-attorney letter of a company: the current one (images in the photo viewer, a PDF as a
 * link) and a file field that uploads a new one. Used by the opening screen and /mobile/adminPowerAuth.
 */
export function LetterSection({
  companyId,
  hasLetter,
  letterType,
  version,
  onSaved,
}: {
  companyId: string;
  hasLetter: boolean;
  letterType: string | null;
  version: string | number;
  onSaved: (apply: CompanyApply) => void;
}) {
  const tt = useCompanyTexts();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const { isBusy, run } = useAction();

  const onFile = (file: File | undefined) => {
    if (!file) return;
    const problem = letterProblem(file, tt);
    if (problem) {
      notify.error(problem, 2000);
      if (input.current) input.current.value = '';
      return;
    }
    void run(async () => {
      const apply = await uploadPowerOfAttorney(companyId, file);
      notify.success(tt('letterSaved'), 2000);
      onSaved(apply);
    });
  };

  const url = powerOfAttorneyUrl(companyId, version);
  return (
    <section aria-label={tt('letterTitle')} style={{ marginBottom: 16 }}>
      <h2 style={{ fontSize: 16 }}>{tt('letterTitle')}</h2>
      <p>{tt('letterHelp')}</p>
      {hasLetter ? (
        <div data-testid="letter-current" style={{ marginBottom: 8 }}>
          <p>{tt('letterUploaded')}</p>
          {letterType === 'application/pdf' ? (
            <a href={url} target="_blank" rel="noreferrer">
              {tt('letterPdf')}
            </a>
          ) : (
            <PhotoViewer photos={[{ src: url, alt: tt('viewLetter') }]} />
          )}
        </div>
      ) : (
        <p>{tt('letterNone')}</p>
      )}
      <label htmlFor={inputId} style={{ display: 'block', marginBottom: 4 }}>
        {hasLetter ? tt('letterReplace') : tt('letterFile')}
      </label>
      <input
        id={inputId}
        ref={input}
        type="file"
        accept="image/png,image/jpeg,application/pdf,.png,.jpg,.jpeg,.pdf"
        disabled={isBusy}
        onChange={(e) => onFile(e.target.files?.[0])}
        style={{ maxWidth: '100%' }}
      />
      {isBusy && <Button loading type="text" aria-hidden />}
    </section>
  );
}
