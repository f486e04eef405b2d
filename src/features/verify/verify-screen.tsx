import Button from 'antd/es/button';
import Tabs from 'antd/es/tabs';
import { useEffect, useRef, useState } from 'react';
import { generatePath, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { type PageGeometry, PdfViewer, type PdfViewerProps } from '@/components/pdf-viewer.tsx';
import { LanguageSwitch } from '@/components/language-switch.tsx';
import { checkPdf, getVerifyReport, type SignatureCard, verifiedPdfUrl, verifyByCode } from '@/api/verify.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import {
  ChainTree,
  CodeForm,
  colourOf,
  ErrorAlert,
  FileFacts,
  OverallBanner,
  regionKey,
  REPORT_TTL_MINUTES,
  ReportDownloads,
  RootHelp,
  SignatureCardView,
  UploadBox,
  useErrorText,
  VerifyStyles,
} from './parts.tsx';
import { texts } from './texts.ts';
import { RescissionNotice } from './rescission-notice.tsx';
import { type CurrentVerification, useVerifyStore } from './verify-store.ts';

const VIEWS = ['summary', 'signatures', 'chain', 'pdf'] as const;
export type View = (typeof VIEWS)[number];

type VerifyScreenProps = {
  /** check: a file the user uploads (report id in the route); verify: a platform document by code; standalone: one page. */
  mode: 'check' | 'verify' | 'standalone';
  view: View;
  onView: (view: View) => void;
  /** check: the kept report's id; verify: the verification code. */
  param?: string;
  /** check: after an upload, the route of its report. */
  onChecked?: (reportId: string) => void;
  onCode?: (code: string) => void;
  isPhone?: boolean;
};

type ScrollTarget = NonNullable<PdfViewerProps['scrollToRect']>;

type Load = { state: 'idle' | 'loading' | 'gone' | 'unknown' } | { state: 'error'; text: string };

const sameCode = (a: string | undefined, b: string | undefined) =>
  !!a && !!b && a.trim().toUpperCase() === b.trim().toUpperCase();

/**
 * One verification and its views (summary, signature cards, certificate chains, the document with each
 * signature outlined): the /check, /verify, /fileVerification, /pcSignVerify and /signVerify pages all
 * show it; the routes only choose the view and name the report or the document.
 */
export function VerifyScreen({ mode, view, onView, param, onChecked, onCode, isPhone }: VerifyScreenProps) {
  const tt = useTexts(texts);
  const errorText = useErrorText();
  const current = useVerifyStore((s) => s.current);
  const show = useVerifyStore((s) => s.show);
  const [load, setLoad] = useState<Load>({ state: 'idle' });
  const [progress, setProgress] = useState<number | null>(null);

  // A route that names a report or a document shows it, fetching it when it is not the one on screen. Only the
  // route decides when to fetch: the store's current verification changing must not fetch again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    let isCurrent = true;
    if (mode === 'check' && param && current?.result.reportId !== param) {
      setLoad({ state: 'loading' });
      getVerifyReport({ reportId: param })
        .then((kept) => {
          if (!isCurrent) return;
          if (!kept) return setLoad({ state: 'gone' });
          show({ result: kept.result, document: kept.document, pdfUrl: null });
          setLoad({ state: 'idle' });
        })
        .catch((e: unknown) => isCurrent && setLoad({ state: 'error', text: errorText(e) }));
    }
    if (mode === 'verify' && param && !sameCode(current?.document?.verificationCode, param)) {
      setLoad({ state: 'loading' });
      verifyByCode({ code: param })
        .then((found) => {
          if (!isCurrent) return;
          if (!found) return setLoad({ state: 'unknown' });
          show({
            result: found.result,
            document: found.document,
            pdfUrl: verifiedPdfUrl(found.document.verificationCode),
          });
          setLoad({ state: 'idle' });
        })
        .catch((e: unknown) => isCurrent && setLoad({ state: 'error', text: errorText(e) }));
    }
    return () => {
      isCurrent = false;
    };
  }, [mode, param]);

  const upload = async (file: File) => {
    setLoad({ state: 'idle' });
    setProgress(0);
    try {
      const result = await checkPdf(file, setProgress);
      show({ result, document: null, pdfUrl: URL.createObjectURL(file) });
      onView('summary');
      onChecked?.(result.reportId);
    } catch (e) {
      setLoad({ state: 'error', text: errorText(e) });
    } finally {
      setProgress(null);
    }
  };

  const isShown =
    current !== null &&
    (mode === 'standalone' ||
      (mode === 'check' && (!param || current.result.reportId === param)) ||
      (mode === 'verify' && sameCode(current.document?.verificationCode, param)));

  return (
    <main className={`verify-page${isPhone ? ' is-phone' : ''}`}>
      <VerifyStyles />
      <div className="verify-top">
        <h1>{mode === 'verify' ? tt('titleVerify') : tt('titleCheck')}</h1>
        <LanguageSwitch />
      </div>
      {mode === 'verify' ? (
        <CodeForm key={param ?? ''} initial={param ?? ''} onSubmit={(code) => onCode?.(code)} />
      ) : (
        <>
          <p className="verify-muted">
            {tt('intro')} {tt('privacy', { minutes: REPORT_TTL_MINUTES })}
          </p>
          <UploadBox onFile={upload} progress={progress} isBusy={progress !== null} />
        </>
      )}
      {load.state === 'loading' ? (
        <div role="status" className="verify-muted" style={{ padding: 16 }}>
          {tt('verifying')}
        </div>
      ) : null}
      {load.state === 'error' ? <ErrorAlert text={load.text} /> : null}
      {load.state === 'gone' ? <ErrorAlert text={tt('reportGone', { minutes: REPORT_TTL_MINUTES })} /> : null}
      {load.state === 'unknown' ? <ErrorAlert text={tt('codeUnknown', { code: param ?? '' })} /> : null}
      {isShown && current && load.state !== 'loading' ? (
        <Verification current={current} view={view} onView={onView} isPhone={isPhone} />
      ) : null}
    </main>
  );
}

function Verification({
  current,
  view,
  onView,
  isPhone,
}: {
  current: CurrentVerification;
  view: View;
  onView: (v: View) => void;
  isPhone?: boolean;
}) {
  const tt = useTexts(texts);
  const selected = useVerifyStore((s) => s.selected);
  const select = useVerifyStore((s) => s.select);
  const [scrollToPage, setScrollToPage] = useState<number | undefined>();
  const [scrollToRect, setScrollToRect] = useState<ScrollTarget | undefined>();
  const { result, document } = current;

  const showInDocument = (card: SignatureCard) => {
    select(card.index);
    setScrollToPage(card.widgets[0]?.page);
    onView('pdf');
  };
  const showRegion = (card: SignatureCard, region: SignatureCard['changedRegions'][number]) => {
    select(card.index);
    setScrollToRect((was) => ({
      page: region.page,
      rect: region.rect as ScrollTarget['rect'],
      seq: (was?.seq ?? 0) + 1,
    }));
    onView('pdf');
  };
  const cardList = (isNarrow: boolean) => (
    <div>
      {result.signatures.map((card) => (
        <SignatureCardView
          key={card.index}
          card={card}
          isSelected={selected === card.index}
          isNarrow={isNarrow}
          onShowInDocument={showInDocument}
          onShowRegion={showRegion}
        />
      ))}
    </div>
  );
  const cards = cardList(false);

  const content: Record<View, React.ReactNode> = {
    summary: (
      <>
        <OverallBanner result={result} />
        <RescissionNotice result={result} />
        <FileFacts result={result} document={document} />
        <ReportDownloads result={result} />
        {cards}
        <RootHelp />
      </>
    ),
    signatures: (
      <>
        <OverallBanner result={result} />
        <RescissionNotice result={result} />
        {cards}
      </>
    ),
    chain: (
      <>
        {result.signatures.map((card) => (
          <section key={card.index} className="verify-card" aria-label={tt('signatureN', { n: card.index })}>
            <div className="verify-label">
              {tt('signatureN', { n: card.index })} · {card.signer?.name ?? card.field}
            </div>
            <ChainTree chain={card.chain} />
          </section>
        ))}
        <RootHelp />
      </>
    ),
    pdf: (
      <div className="verify-split">
        <DocumentView
          current={current}
          scrollToPage={scrollToPage}
          scrollToRect={scrollToRect}
          isPhone={isPhone}
        />
        <div className="verify-split-cards">{cardList(true)}</div>
      </div>
    ),
  };

  return (
    <Tabs
      activeKey={view}
      onChange={(key) => onView(key as View)}
      items={[
        { key: 'summary', label: tt('viewSummary') },
        { key: 'signatures', label: tt('viewSignatures') },
        { key: 'chain', label: tt('viewChain') },
        { key: 'pdf', label: tt('viewPdf') },
      ].map((item) => ({ ...item, children: item.key === view ? content[view] : null }))}
    />
  );
}

async function sha256Hex(file: File): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The document with each signature's widget outlined in its status colour and linked to its card, and each
 * region where a page shows something other than what was signed drawn as a red box.
 */
function DocumentView({
  current,
  scrollToPage,
  scrollToRect,
  isPhone,
}: {
  current: CurrentVerification;
  scrollToPage?: number;
  scrollToRect?: ScrollTarget;
  isPhone?: boolean;
}) {
  const tt = useTexts(texts);
  const selected = useVerifyStore((s) => s.selected);
  const select = useVerifyStore((s) => s.select);
  const setPdfUrl = useVerifyStore((s) => s.setPdfUrl);
  const input = useRef<HTMLInputElement>(null);
  const viewer = useRef<HTMLDivElement>(null);
  const [match, setMatch] = useState<boolean | null>(null);
  const { result, pdfUrl } = current;
  // Showing a region brings the document itself into view too (on a phone the cards below it may be where
  // the page was scrolled to); the viewer then brings the region to its middle.
  const showSeq = scrollToRect?.seq;
  useEffect(() => {
    if (showSeq) viewer.current?.scrollIntoView?.({ block: 'start' });
  }, [showSeq]);

  const outline = (g: PageGeometry) =>
    result.signatures.flatMap((card) =>
      card.widgets
        .filter((w) => w.page === g.pageNumber)
        .map((w) => {
          const box = g.toScreen(w.rect as [number, number, number, number]);
          const colour = colourOf(card.status);
          return (
            <button
              key={`${card.index}-${w.rect.join(',')}`}
              type="button"
              className={`verify-outline${selected === card.index ? ' is-selected' : ''}`}
              aria-label={tt('signatureN', { n: card.index })}
              title={`${tt('signatureN', { n: card.index })} · ${card.signer?.name ?? ''}`}
              style={{ ...box, borderColor: colour }}
              onClick={() => {
                select(card.index);
                document
                  .getElementById(`verify-sig-${card.index}`)
                  ?.scrollIntoView({ behavior: 'smooth', block: 'start' });
              }}
            >
              <span style={{ background: colour }}>{card.index}</span>
            </button>
          );
        }),
    );

  // A region reported for several signatures is drawn once, linked to the first card that reports it.
  const regions = new Map<string, { card: SignatureCard; region: SignatureCard['changedRegions'][number] }>();
  for (const card of result.signatures)
    for (const region of card.changedRegions) {
      const key = regionKey(region);
      if (!regions.has(key)) regions.set(key, { card, region });
    }
  const changed = (g: PageGeometry) =>
    [...regions]
      .filter(([, { region }]) => region.page === g.pageNumber)
      .map(([key, { card, region }]) => (
        <button
          key={key}
          type="button"
          className="verify-region"
          aria-label={tt('regionBoxN', { page: region.page })}
          style={g.toScreen(region.rect as [number, number, number, number])}
          onClick={() => {
            select(card.index);
            document
              .getElementById(`verify-sig-${card.index}`)
              ?.scrollIntoView({ behavior: 'smooth', block: 'start' });
          }}
        >
          <span>{tt('regionBox')}</span>
        </button>
      ));
  const overlay = (g: PageGeometry) => (
    <>
      {changed(g)}
      {outline(g)}
    </>
  );

  if (!pdfUrl)
    return (
      <div className="verify-card">
        <p>{tt('noFileHere')}</p>
        <Button onClick={() => input.current?.click()}>{tt('chooseAgain')}</Button>
        <input
          ref={input}
          type="file"
          accept="application/pdf,.pdf"
          aria-label={tt('chooseAgain')}
          style={{ display: 'none' }}
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            const isSame = (await sha256Hex(file)) === result.file.sha256;
            setMatch(isSame);
            if (isSame) setPdfUrl(URL.createObjectURL(file));
          }}
        />
        {match === false ? <ErrorAlert text={tt('fileDiffers')} /> : null}
      </div>
    );
  return (
    <div ref={viewer}>
      {match ? <p className="verify-muted">{tt('fileMatches')}</p> : null}
      <PdfViewer
        url={pdfUrl}
        pageSizes={result.file.pages.length > 0 ? result.file.pages : undefined}
        renderOverlay={overlay}
        height={isPhone ? '60vh' : '78vh'}
        label={tt('viewPdf')}
        scrollToPage={scrollToPage}
        scrollToRect={scrollToRect}
      />
    </div>
  );
}

type Routes = {
  /** The summary route, `:params` being the report id or the code. */
  summary: string;
  views: Record<Exclude<View, 'summary'>, string>;
  /** The query parameter the views carry the report id or the code in. */
  query: string;
};

const ROUTES: Record<'check' | 'verify', Routes> = {
  check: {
    summary: paths.checkInfo,
    views: { signatures: paths.checkSignature, chain: paths.checkChain, pdf: paths.checkPdf },
    query: 'report',
  },
  verify: {
    summary: paths.verifyInfo,
    views: { signatures: paths.verifySignature, chain: paths.verifyChain, pdf: paths.verifyPdf },
    query: 'code',
  },
};

/**
 * The verification screen on its routes: the summary at `<summary>/<param>`, each view at
 * `<view>?<query>=<param>`; `check` keeps an uploaded file's report, `verify` a platform document's code.
 */
export function RoutedVerifyScreen({ mode }: { mode: 'check' | 'verify' }) {
  const { summary, views, query: key } = ROUTES[mode];
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { params } = useParams();
  const [query] = useSearchParams();
  const view = (Object.entries(views).find(([, p]) => p === pathname)?.[0] as View | undefined) ?? 'summary';
  const param = view === 'summary' ? params : (query.get(key) ?? undefined);
  const go = (v: View, p = param) => {
    if (!p) return;
    if (v === 'summary') navigate(generatePath(summary, { params: p }));
    else navigate(`${views[v]}?${key}=${encodeURIComponent(p)}`);
  };
  return (
    <VerifyScreen
      mode={mode}
      view={view}
      param={param}
      onView={go}
      onChecked={mode === 'check' ? (id) => go('summary', id) : undefined}
      onCode={mode === 'verify' ? (c) => go('summary', c.trim()) : undefined}
    />
  );
}
