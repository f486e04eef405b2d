import { RoutedVerifyScreen } from './verify-screen.tsx';

/**
 * /check, /check/<reportId>, /check/checkSignature|checkChain|checkPdf?report=<reportId>: a file the user
 * uploads, then the views of its kept report (which survive a reload for the report's hour).
 */
export default function CheckPage() {
  return <RoutedVerifyScreen mode="check" />;
}
