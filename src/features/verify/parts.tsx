import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Input from 'antd/es/input';
import Progress from 'antd/es/progress';
import Tree from 'antd/es/tree';
import { type ReactNode, useRef, useState } from 'react';
import { ApiError } from '@/api/http.ts';
import {
  type PlatformDocument,
  REPORT_TTL_MINUTES,
  reportUrl,
  rootCertUrl,
  type SignatureCard,
  type VerifyResult,
} from '@/api/verify.ts';
import { reasonsToShow } from '#contract/verify-claims.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { type TextKey, texts } from './texts.ts';
import { formatDate, formatTime } from '@/lib/format-time.ts';

type Status = VerifyResult['status'];

const COLOURS: Record<Status, string> = {
  valid: '#389e0d',
  invalid: '#cf1322',
  modified: '#cf1322',
  revoked: '#cf1322',
  unknownIdentity: '#d48806',
  indeterminate: '#d48806',
  unsigned: '#8c8c8c',
};
const SYMBOLS: Record<Status, string> = {
  valid: '✓',
  invalid: '✕',
  modified: '✕',
  revoked: '✕',
  unknownIdentity: '?',
  indeterminate: '!',
  unsigned: '–',
};

export const colourOf = (s: Status) => COLOURS[s];

/** The status icon: a coloured disc with a symbol, like Adobe's signature panel (decorative; words follow). */
function StatusIcon({ status, size = 22 }: { status: Status; size?: number }) {
  return (
    <span
      aria-hidden="true"
      data-status={status}
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        flex: 'none',
        width: size,
        height: size,
        borderRadius: '50%',
        background: COLOURS[status],
        color: '#fff',
        fontWeight: 700,
        fontSize: size * 0.6,
        lineHeight: 1,
      }}
    >
      {SYMBOLS[status]}
    </span>
  );
}

/** A time of the report, or a dash for none. */
const timeOf = (iso: string | null | undefined, locale: string) => formatTime(iso, locale) || '—';

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The words for a refusal of checkPdf / verifyByCode: our own per code, the server's for the size limit. */
export function useErrorText() {
  const tt = useTexts(texts);
  return (error: unknown): string => {
    if (error instanceof ApiError) {
      if (error.code === 1903) return error.message || tt('err.1903');
      if (error.code >= 1901 && error.code <= 1906) return tt(`err.${error.code}` as TextKey);
      return tt('errGeneric', { msg: error.message });
    }
    return tt('errGeneric', { msg: error instanceof Error ? error.message : String(error) });
  };
}

/** The ETSI EN 319 102-1 indication and sub-indication, for the technical details only. */
const etsiCode = (indication: string, sub: string | null) => (sub ? `${indication}/${sub}` : indication);

/** The overall verdict: a status region with icon and plain words; the ETSI code in the details. */
export function OverallBanner({ result }: { result: VerifyResult }) {
  const tt = useTexts(texts);
  const colour = COLOURS[result.status];
  return (
    <section
      role="status"
      aria-label={tt('resultRegion')}
      data-status={result.status}
      className="verify-banner"
      style={{ borderLeft: `6px solid ${colour}` }}
    >
      <StatusIcon status={result.status} size={32} />
      <div>
        <strong style={{ color: colour, fontSize: 18 }}>{tt(`status.${result.status}` as TextKey)}</strong>
        <p style={{ margin: '4px 0' }}>{tt(`advice.${result.status}` as TextKey)}</p>
        {result.status === 'unsigned' ? null : (
          <details className="verify-technical">
            <summary>{tt('technical')}</summary>
            <span className="verify-muted">
              {tt('etsiCode', { code: etsiCode(result.verdict, result.subIndication) })}
            </span>
          </details>
        )}
      </div>
    </section>
  );
}

/** What the file and (for a platform document) the platform know. */
export function FileFacts({ result, document }: { result: VerifyResult; document: PlatformDocument | null }) {
  const tt = useTexts(texts);
  const lang = useLocale();
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, sm: 1, md: 2 }}
      items={[
        ...(document
          ? [
              { key: 'doc', label: tt('docName'), children: document.documentName },
              { key: 'flow', label: tt('flow'), children: document.flowTitle },
              { key: 'code', label: tt('code'), children: document.verificationCode },
            ]
          : [{ key: 'file', label: tt('file'), children: result.file.name ?? '—' }]),
        { key: 'size', label: tt('size'), children: formatSize(result.file.size) },
        { key: 'sigs', label: tt('signatures'), children: result.signatures.length },
        { key: 'revs', label: tt('revisions'), children: result.revisions },
        { key: 'at', label: tt('verifiedAt'), children: timeOf(result.verifiedAt, lang) },
        {
          key: 'sha',
          label: tt('sha256'),
          children: <code style={{ wordBreak: 'break-all', fontSize: 12 }}>{result.file.sha256}</code>,
        },
      ]}
    />
  );
}

const useLocale = () => useI18nStore((s) => s.locale);

/** The certificate chain as a tree: the root at the top, each certificate it issued one level in. */
export function ChainTree({ chain }: { chain: SignatureCard['chain'] }) {
  const tt = useTexts(texts);
  const lang = useLocale();
  if (chain.length === 0) return <span className="verify-muted">—</span>;
  type Node = { key: string; title: ReactNode; children: Node[] };
  const fromRoot = [...chain].reverse();
  let tree: Node[] = [];
  let parent: Node | null = null;
  fromRoot.forEach((c, i) => {
    const node: Node = {
      key: `${i}-${c.serial}`,
      title: (
        <span className="verify-cert">
          <span>{c.subject || '—'}</span>
          <span className="verify-muted">
            {tt('serial')} {c.serial} ·{' '}
            {tt('validity', { from: formatDate(c.notBefore, lang), to: formatDate(c.notAfter, lang) })}
          </span>
        </span>
      ),
      children: [],
    };
    if (parent) parent.children.push(node);
    else tree = [node];
    parent = node;
  });
  return (
    <Tree
      aria-label={tt('chain')}
      treeData={tree}
      defaultExpandAll
      selectable={false}
      showLine
      style={{ background: 'transparent' }}
    />
  );
}

type Region = SignatureCard['changedRegions'][number];

/** A changed region in plain words: the page, what it shows other than what was signed, where (in points). */
export function RegionText({ region }: { region: Region }) {
  const tt = useTexts(texts);
  const [x0, y0, x1, y1] = region.rect.map(Math.round);
  return <>{tt(`region.${region.what}` as TextKey, { page: region.page, x0, y0, x1, y1 })}</>;
}

/** The key of a region (the same region may be reported for several signatures). */
export const regionKey = (r: Region) => `${r.page}:${r.what}:${r.rect.join(',')}`;

/** One signature: status icon and words, who, when, what it covers, what changed, the chain. */
export function SignatureCardView({
  card,
  isSelected,
  isNarrow,
  onShowInDocument,
  onShowRegion,
}: {
  card: SignatureCard;
  isSelected?: boolean;
  /** Beside the document: one column of facts. */
  isNarrow?: boolean;
  onShowInDocument?: (card: SignatureCard) => void;
  /** Shows a changed region in the document. */
  onShowRegion?: (card: SignatureCard, region: Region) => void;
}) {
  const tt = useTexts(texts);
  const lang = useLocale();
  const colour = COLOURS[card.status];
  // The signed bytes no longer match: nothing about later changes or trust is said (also for a report kept
  // from before the server said so itself).
  const isBroken = card.intact === false;
  const trust =
    isBroken || card.trusted === null
      ? tt('trustUnknown')
      : card.trustSource === 'platform'
        ? tt('trustPlatform')
        : card.trustSource === 'anchor'
          ? tt('trustAnchor')
          : tt('trustNone');
  const modification = isBroken ? 'unknown' : card.modifiedAfterSigning;
  const reasons = reasonsToShow(card.reasons, card.intact);
  const ts = card.timestamp;
  const revocation =
    card.revocation === 'revoked' && card.revokedAt
      ? tt('revokedOn', { time: timeOf(card.revokedAt, lang) })
      : tt(`rev.${card.revocation}` as TextKey);
  return (
    <article
      id={`verify-sig-${card.index}`}
      aria-label={tt('signatureN', { n: card.index })}
      data-status={card.status}
      className={`verify-card${isSelected ? ' is-selected' : ''}`}
      style={{ borderTop: `4px solid ${colour}` }}
    >
      <header className="verify-card-head">
        <StatusIcon status={card.status} />
        <div style={{ minWidth: 0 }}>
          <div>
            <strong style={{ color: colour }}>{tt(`sig.${card.status}` as TextKey)}</strong>
          </div>
          <div className="verify-muted">
            {tt('signatureN', { n: card.index })} · {tt(`kind.${card.kind}` as TextKey)} · {tt('field')}{' '}
            {card.field}
          </div>
        </div>
        {onShowInDocument && card.widgets.length > 0 ? (
          <Button size="small" style={{ marginLeft: 'auto' }} onClick={() => onShowInDocument(card)}>
            {tt('showInDocument')}
          </Button>
        ) : null}
      </header>
      {reasons.length > 0 ? (
        <ul className="verify-reasons" aria-label={tt('reasons')}>
          {reasons.map((r) => (
            <li key={r}>{tt(`reason.${r}` as TextKey)}</li>
          ))}
        </ul>
      ) : null}
      {card.changedRegions.length > 0 ? (
        <section className="verify-regions" aria-label={tt('regions')}>
          <div className="verify-label">{tt('regions')}</div>
          <ul>
            {card.changedRegions.map((r) => (
              <li key={regionKey(r)}>
                <RegionText region={r} />
                {onShowRegion ? (
                  <Button size="small" type="link" onClick={() => onShowRegion(card, r)}>
                    {tt('showRegion')}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {card.filledFields.length > 0 ? (
        <section className="verify-filled" aria-label={tt('filledFields')}>
          <div className="verify-label">{tt('filledFields')}</div>
          <ul>
            {card.filledFields.map((f) => (
              <li key={f.name}>
                {f.label} ={' '}
                {f.checkbox ? (f.value === 'Off' ? tt('filledUnchecked') : tt('filledChecked')) : f.value}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <Descriptions
        size="small"
        column={isNarrow ? 1 : { xs: 1, sm: 1, md: 2 }}
        items={[
          { key: 'signer', label: tt('signer'), children: card.signer?.name ?? '—' },
          { key: 'org', label: tt('organisation'), children: card.signer?.organisation ?? '—' },
          { key: 'at', label: tt('signedAt'), children: timeOf(card.signedAt, lang) },
          {
            key: 'ts',
            label: tt('timestamp'),
            children: ts ? `${timeOf(ts.time, lang)}${ts.valid ? '' : ` (${tt('timestampInvalid')})`}` : '—',
          },
          { key: 'tsa', label: tt('timestampAuthority'), children: ts?.authority ?? '—' },
          { key: 'cov', label: tt('coverage'), children: tt(`coverage.${card.coverage}` as TextKey) },
          { key: 'mod', label: tt('changes'), children: tt(`mod.${modification}` as TextKey) },
          { key: 'trust', label: tt('trust'), children: trust },
          { key: 'rev', label: tt('revocation'), children: revocation },
        ]}
      />
      {card.subIndication === 'REVOKED_NO_POE' ? <p role="note">{tt('revokedNoPoe')}</p> : null}
      {card.widgets.length === 0 ? <p className="verify-muted">{tt('invisible')}</p> : null}
      <div className="verify-chain">
        <div className="verify-label">{tt('chain')}</div>
        <ChainTree chain={card.chain} />
      </div>
      <details className="verify-technical">
        <summary>{tt('technical')}</summary>
        {card.changes.length + card.details.length + card.warnings.length > 0 ? (
          <ul>
            {card.changes.map((c) => (
              <li key={`c-${c}`}>Δ {c}</li>
            ))}
            {card.details.map((d) => (
              <li key={`d-${d}`}>{d}</li>
            ))}
            {card.warnings.map((w) => (
              <li key={`w-${w}`} className="verify-muted">
                ⚠ {w}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="verify-muted">
          {tt('etsiCode', { code: etsiCode(card.indication, card.subIndication) })} ·{' '}
          {tt('trustAsideCode', {
            code: etsiCode(card.trustAside.indication, card.trustAside.subIndication),
          })}
        </div>
      </details>
    </article>
  );
}

/** Downloads of the kept report, and until when. */
export function ReportDownloads({ result }: { result: VerifyResult }) {
  const tt = useTexts(texts);
  const lang = useLocale();
  return (
    <div className="verify-downloads">
      <Button href={reportUrl(result.reportId, 'pdf')} download>
        {tt('downloadPdf')}
      </Button>
      <Button href={reportUrl(result.reportId, 'json')} download>
        {tt('downloadJson')}
      </Button>
      <span className="verify-muted">{tt('expires', { time: timeOf(result.expiresAt, lang) })}</span>
    </div>
  );
}

/** The platform root: a download and how to trust it in Adobe Reader and for pdfsig. */
export function RootHelp() {
  const tt = useTexts(texts);
  return (
    <section className="verify-root" aria-label={tt('rootTitle')}>
      <div className="verify-label">{tt('rootTitle')}</div>
      <p>{tt('rootText')}</p>
      <p>
        <a href={rootCertUrl()} download="esign-root-ca.crt">
          {tt('rootDownload')}
        </a>
      </p>
      <details>
        <summary>{tt('rootHow')}</summary>
        <p>{tt('rootAdobe')}</p>
        <p>{tt('rootNss')}</p>
        <pre className="verify-pre">
          {[
            'mkdir -p ~/esign-nss && certutil -N -d sql:$HOME/esign-nss --empty-password',
            'certutil -A -d sql:$HOME/esign-nss -n esign-root -t "C,C,C" -i esign-root-ca.crt',
            'pdfsig -nssdir sql:$HOME/esign-nss signed.pdf',
          ].join('\n')}
        </pre>
      </details>
    </section>
  );
}

/** Drag-and-drop (or click) a PDF; shows upload progress, then that the server is verifying. */
export function UploadBox({
  onFile,
  progress,
  isBusy,
  maxMb = 50,
}: {
  onFile: (file: File) => void;
  progress: number | null;
  isBusy: boolean;
  maxMb?: number;
}) {
  const tt = useTexts(texts);
  const input = useRef<HTMLInputElement>(null);
  const [isOver, setIsOver] = useState(false);
  const pick = (files: FileList | null) => {
    const f = files?.[0];
    if (f && !isBusy) onFile(f);
  };
  return (
    <div
      className={`verify-drop${isOver ? ' is-over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setIsOver(true);
      }}
      onDragLeave={() => setIsOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setIsOver(false);
        pick(e.dataTransfer.files);
      }}
    >
      <button
        type="button"
        className="verify-drop-button"
        disabled={isBusy}
        onClick={() => input.current?.click()}
      >
        <span style={{ fontSize: 32 }} aria-hidden="true">
          ⇪
        </span>
        <strong>{tt('dropLabel')}</strong>
        <span className="verify-muted">{tt('dropHint', { mb: maxMb })}</span>
      </button>
      <input
        ref={input}
        type="file"
        accept="application/pdf,.pdf"
        aria-label={tt('dropLabel')}
        style={{ display: 'none' }}
        onChange={(e) => {
          pick(e.target.files);
          e.target.value = '';
        }}
      />
      {progress !== null ? (
        <div style={{ marginTop: 12 }} aria-live="polite">
          <Progress percent={Math.round(progress * 100)} size="small" />
          <span className="verify-muted">
            {progress < 1 ? tt('uploading', { percent: Math.round(progress * 100) }) : tt('verifying')}
          </span>
        </div>
      ) : null}
    </div>
  );
}

/** The verification code form of /verify. */
export function CodeForm({ onSubmit, initial = '' }: { onSubmit: (code: string) => void; initial?: string }) {
  const tt = useTexts(texts);
  const [code, setCode] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="verify-code-form"
      onSubmit={(e) => {
        e.preventDefault();
        const v = code.trim();
        if (v.length < 4) {
          setError(tt('codeRequired'));
          return;
        }
        setError(null);
        onSubmit(v);
      }}
    >
      <label htmlFor="verify-code" className="verify-label">
        {tt('codeLabel')}
      </label>
      <div style={{ display: 'flex', gap: 8 }}>
        <Input
          id="verify-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          placeholder="XXXX-XXXX-XXXX-XXXX"
          status={error ? 'error' : undefined}
          autoComplete="off"
        />
        <Button type="primary" htmlType="submit">
          {tt('codeSubmit')}
        </Button>
      </div>
      <div className="verify-muted">{tt('codeHint')}</div>
      {error ? (
        <div role="alert" style={{ color: '#cf1322' }}>
          {error}
        </div>
      ) : null}
    </form>
  );
}

export function ErrorAlert({ text }: { text: string }) {
  return <Alert type="error" showIcon role="alert" title={text} style={{ margin: '12px 0' }} />;
}

export { REPORT_TTL_MINUTES };

/** The page's own CSS (responsive down to a 375 px phone). */
export function VerifyStyles() {
  return (
    <style>{`
      .verify-page { max-width: 1180px; margin: 0 auto; padding: 16px 20px 48px; box-sizing: border-box; font-size: 14px; }
      .verify-top { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }
      .verify-top h1 { font-size: 22px; margin: 8px 0; flex: 1 1 auto; }
      .verify-muted { color: #8c8c8c; font-size: 12px; }
      .verify-label { font-weight: 600; margin: 8px 0 4px; display: block; }
      .verify-drop { border: 2px dashed #d9d9d9; border-radius: 8px; padding: 20px; text-align: center; background: #fafafa; }
      .verify-drop.is-over { border-color: #1677ff; background: #e6f4ff; }
      .verify-drop-button { display: flex; flex-direction: column; align-items: center; gap: 6px; width: 100%;
        background: none; border: 0; cursor: pointer; padding: 12px; font-size: 15px; color: inherit; }
      .verify-banner { display: flex; gap: 12px; align-items: center; padding: 12px 16px; background: #fff;
        border-radius: 6px; box-shadow: 0 1px 3px rgba(0,0,0,.08); margin: 12px 0; }
      .verify-card { background: #fff; border-radius: 6px; padding: 12px 16px; margin: 12px 0;
        box-shadow: 0 1px 3px rgba(0,0,0,.1); scroll-margin-top: 12px; }
      .verify-card.is-selected { outline: 2px solid #1677ff; }
      .verify-card-head { display: flex; gap: 10px; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
      .verify-reasons { margin: 4px 0 8px; padding-left: 20px; }
      .verify-cert { display: inline-flex; flex-direction: column; }
      .verify-technical { margin-top: 8px; font-size: 12px; }
      .verify-downloads { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 12px 0; }
      .verify-root { margin: 16px 0; background: #fff; padding: 8px 12px; border-radius: 6px; }
      .verify-pre { white-space: pre-wrap; word-break: break-all; background: #f5f5f5; padding: 8px; font-size: 12px; }
      .verify-split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(280px, 2fr); gap: 16px; }
      .verify-split-cards { max-height: 78vh; overflow: auto; }
      .verify-outline { position: absolute; border: 2px solid; border-radius: 2px; background: rgba(22,119,255,.06);
        cursor: pointer; padding: 0; font-size: 11px; font-weight: 700; color: #fff; }
      .verify-outline span { position: absolute; top: -2px; left: -2px; padding: 0 4px; }
      .verify-outline.is-selected { box-shadow: 0 0 0 3px rgba(22,119,255,.5); }
      .verify-regions { border-left: 3px solid #cf1322; background: #fff1f0; padding: 4px 10px; margin: 4px 0 8px; }
      .verify-regions .verify-label { color: #a8071a; margin-top: 2px; }
      .verify-regions ul { margin: 0; padding-left: 18px; }
      .verify-region { position: absolute; border: 2px solid #cf1322; border-radius: 2px; padding: 0;
        background: rgba(207,19,34,.15); cursor: pointer; min-width: 8px; min-height: 8px; box-sizing: border-box; }
      .verify-region span { position: absolute; bottom: 100%; left: -2px; padding: 0 4px; white-space: nowrap;
        background: #cf1322; color: #fff; font-size: 11px; font-weight: 700; line-height: 16px; border-radius: 2px 2px 0 0; }
      .verify-code-form { max-width: 520px; margin: 12px 0; }
      @media (max-width: 760px) {
        .verify-page { padding: 8px 10px 32px; }
        .verify-top h1 { font-size: 18px; }
        .verify-split { grid-template-columns: minmax(0, 1fr); }
        .verify-split-cards { max-height: none; }
      }
    `}</style>
  );
}
