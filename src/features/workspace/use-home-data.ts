import { useCallback, useEffect, useState } from 'react';
import {
  FlowStatus,
  type FlowSummary,
  type PendingItem,
  getQuota,
  listLaunchedFlows,
  listPendingSignatures,
  roomQuery,
  saveRoomLogin,
  signingRoomLogin,
} from '@/api/flow.ts';
import { paths } from '@/config/paths.ts';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { showApiError } from '@/api/http.ts';

/** How many rows the home previews show; the lists behind "See all" have the rest. */
const PREVIEW_ROWS = 5;

export type HomeData = {
  pending: { total: number; list: PendingItem[] };
  inProgress: { total: number; list: FlowSummary[] };
  remaining: number;
};

/** The workspace home's three figures, loaded together; `reload` after a failure. */
export function useHomeData() {
  const [data, setData] = useState<HomeData | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(async () => {
    setProblem(null);
    try {
      const [pending, inProgress, quota] = await Promise.all([
        listPendingSignatures({ pageNum: 1, pageSize: PREVIEW_ROWS }),
        listLaunchedFlows({ pageNum: 1, pageSize: PREVIEW_ROWS, status: FlowStatus.Signing }),
        getQuota({}),
      ]);
      setData({
        pending: { total: pending.total, list: pending.list },
        inProgress: { total: inProgress.total, list: inProgress.list },
        remaining: quota.remaining,
      });
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return { data, problem, reload: load };
}

/** Open the signing room of a pending row (the same way the signing list does). */
export function useOpenRoom() {
  const navigate = useSafeNavigate();
  return async (row: PendingItem) => {
    try {
      const login = await signingRoomLogin({ flowId: row.flowId, partyId: row.partyId });
      saveRoomLogin(login);
      navigate(`${paths.signingRoomTransition}${roomQuery(login)}`);
    } catch (e) {
      showApiError(e);
    }
  };
}
