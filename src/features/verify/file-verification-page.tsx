import { useState } from 'react';
import { type View, VerifyScreen } from './verify-screen.tsx';

/** /fileVerification and /pcSignVerify: upload and verify on one PC page (the views switch in place). */
export default function FileVerificationPage() {
  const [view, setView] = useState<View>('summary');
  return <VerifyScreen mode="standalone" view={view} onView={setView} />;
}
