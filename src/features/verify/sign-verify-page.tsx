import { useState } from 'react';
import { type View, VerifyScreen } from './verify-screen.tsx';

/** /signVerify (mobile scope): the same verification laid out for a 375 px phone. */
export default function SignVerifyPage() {
  const [view, setView] = useState<View>('summary');
  return <VerifyScreen mode="standalone" view={view} onView={setView} isPhone />;
}
