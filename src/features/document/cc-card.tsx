import { CcSection } from '@/components/cc/cc-section.tsx';
import { useLaunchDraft } from './launch-draft.ts';

/** The launch page's "Copy to (抄送)" card: recipients who do not sign, kept in the launch draft. */
export function CcCard() {
  const { draft, update } = useLaunchDraft();
  return <CcSection list={draft.cc ?? []} onChange={(cc) => update((d) => ({ ...d, cc }))} />;
}
