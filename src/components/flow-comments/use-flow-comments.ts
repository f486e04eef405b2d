// The comments of one flow (issue 29) as a screen holds them: loaded for the session or a signing room
// (roomToken), written, resolved and reopened; the "pin to page" mode and the place picked on a page.
import { useCallback, useEffect, useState } from 'react';
import {
  addFlowComment,
  type CommentAnchor,
  type CommentThread,
  listFlowComments,
  setCommentThreadResolved,
} from '@/api/comments.ts';
import { showApiError } from '@/api/http.ts';

export type CommentsState = ReturnType<typeof useFlowComments>;

export function useFlowComments(flowId: string | null, roomToken?: string) {
  const [revision, setRevision] = useState(1);
  const [canWrite, setCanWrite] = useState(false);
  const [threads, setThreads] = useState<CommentThread[]>([]);
  const [isPinning, setIsPinning] = useState(false);
  const [anchor, setAnchor] = useState<CommentAnchor | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [focused, setFocused] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!flowId) return;
    try {
      const r = await listFlowComments({ flowId, roomToken });
      setRevision(r.revision);
      setCanWrite(r.canWrite);
      setThreads(r.threads);
    } catch (e) {
      showApiError(e);
    }
  }, [flowId, roomToken]);

  // Loaded at once, and again whenever the page comes back into view (another party may have written).
  useEffect(() => {
    void load();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void load();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [load]);

  /** Runs a write, then reloads; answers whether it succeeded (a refusal is shown). */
  const write = async (run: () => Promise<unknown>): Promise<boolean> => {
    setIsBusy(true);
    try {
      await run();
      await load();
      return true;
    } catch (e) {
      showApiError(e);
      return false;
    } finally {
      setIsBusy(false);
    }
  };

  return {
    revision,
    canWrite,
    threads,
    isBusy,
    isPinning,
    anchor,
    focused,
    setFocused,
    /** Starts or stops "pin to page": the next click on a page picks the place. */
    setIsPinning: (on: boolean) => setIsPinning(on),
    /** The place picked on a page (or null to unpin). */
    pinAt: (a: CommentAnchor | null) => {
      setAnchor(a);
      setIsPinning(false);
    },
    add: async (body: string) => {
      if (!flowId) return false;
      const ok = await write(() =>
        addFlowComment({ flowId, roomToken, body, ...(anchor ? { anchor } : {}) }),
      );
      if (ok) setAnchor(null);
      return ok;
    },
    reply: (threadId: string, body: string) =>
      flowId ? write(() => addFlowComment({ flowId, roomToken, threadId, body })) : Promise.resolve(false),
    setResolved: (threadId: string, resolved: boolean) =>
      flowId
        ? write(() => setCommentThreadResolved({ flowId, roomToken, threadId, resolved }))
        : Promise.resolve(false),
    reload: load,
  };
}
