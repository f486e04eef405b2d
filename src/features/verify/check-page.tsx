import { generatePath, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { type View, VerifyScreen } from './verify-screen.tsx';

const VIEW_PATHS: Record<Exclude<View, 'summary'>, string> = {
  signatures: paths.checkSignature,
  chain: paths.checkChain,
  pdf: paths.checkPdf,
};

/**
 * /check, /check/<reportId>, /check/checkSignature|checkChain|checkPdf?report=<reportId>: a file the user
 * uploads, then the views of its kept report (which survive a reload for the report's hour).
 */
export default function CheckPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { params } = useParams();
  const [query] = useSearchParams();
  const view =
    (Object.entries(VIEW_PATHS).find(([, p]) => p === pathname)?.[0] as View | undefined) ?? 'summary';
  const reportId = view === 'summary' ? params : (query.get('report') ?? undefined);
  const go = (v: View, id = reportId) => {
    if (!id) return;
    if (v === 'summary') navigate(generatePath(paths.checkInfo, { params: id }));
    else navigate(`${VIEW_PATHS[v]}?report=${encodeURIComponent(id)}`);
  };
  return (
    <VerifyScreen
      mode="check"
      view={view}
      param={reportId}
      onView={go}
      onChecked={(id) => go('summary', id)}
    />
  );
}
