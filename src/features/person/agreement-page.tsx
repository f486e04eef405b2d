import { AgreementView } from './parts.tsx';

/** /h5/v1/userAgreement and /h5/agreement: the agreement text; accept button when logged in. */
export default function AgreementPage() {
  return (
    <main style={{ padding: 16, maxWidth: 720, margin: '0 auto' }}>
      <AgreementView />
    </main>
  );
}
