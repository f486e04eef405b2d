import { RoutedVerifyScreen } from './verify-screen.tsx';

/**
 * /verify (enter a code), /verify/<code> (opened from the footer QR code of a platform document), and its
 * views /verify/signature|chain|pdf?code=<code>.
 */
export default function VerifyPage() {
  return <RoutedVerifyScreen mode="verify" />;
}
