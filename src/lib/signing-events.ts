import { EmbedEvent, notifyParent } from './embedding.ts';
import { nativeBridge } from './native-bridge.ts';

/**
 * Tells whoever hosts the signing room that a party finished: the partner page that frames the app
 * (postMessage to its configured origins only) and the native app around the web view, when there is one.
 * Loaded on demand after a signature so that the signing room's first load stays small. Never throws:
 * a host that cannot hear the event must not turn a successful signature into an error.
 */
export async function reportSigningResult(result: {
  flowId: string;
  partyId: string;
  result: 'signed' | 'declined';
}): Promise<void> {
  const { flowId, partyId } = result;
  const event = result.result === 'signed' ? EmbedEvent.SigningFinished : EmbedEvent.SigningDeclined;
  await notifyParent(event, { flowId, partyId }).catch(() => 0);
  const bridge = nativeBridge();
  if (bridge.hasNative()) await bridge.sendSignResult(result).catch(() => undefined);
}
