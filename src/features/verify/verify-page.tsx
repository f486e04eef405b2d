import { generatePath, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { type View, VerifyScreen } from './verify-screen.tsx';

const VIEW_PATHS: Record<Exclude<View, 'summary'>, string> = {
  signatures: paths.verifySignature,
  chain: paths.verifyChain,
  pdf: paths.verifyPdf,
};

/**
 * /verify (enter a code), /verify/<code> (opened from the footer QR code of a platform document), and its
 * views /verify/signature|chain|pdf?code=<code>.
 */
export default function VerifyPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { params } = useParams();
  const [query] = useSearchParams();
  const view =
    (Object.entries(VIEW_PATHS).find(([, p]) => p === pathname)?.[0] as View | undefined) ?? 'summary';
  const code = view === 'summary' ? params : (query.get('code') ?? undefined);
  const go = (v: View, c = code) => {
    if (!c) return;
    if (v === 'summary') navigate(generatePath(paths.verifyInfo, { params: c }));
    else navigate(`${VIEW_PATHS[v]}?code=${encodeURIComponent(c)}`);
  };
  return (
    <VerifyScreen
      mode="verify"
      view={view}
      param={code}
      onView={go}
      onCode={(c) => go('summary', c.trim())}
    />
  );
}
