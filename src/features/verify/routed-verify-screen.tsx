import { generatePath, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { type View, VerifyScreen } from './verify-screen.tsx';

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
