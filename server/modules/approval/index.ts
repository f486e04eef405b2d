// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
// Flow asks it at every company seal's use (requireApprovedUse, markApprovalsUsed), serves the room calls
// (roomApprovals, requestApproval) and voids a flow's open requests when the flow ends (voidForFlow); webhook
// and flow listen to its hooks; the integrator API lists and decides requests.
export {
  type ApprovalEvent,
  type LaunchDecided,
  approvalEvent,
  approvalNotice,
  launchDecided,
} from './hooks.ts';
export {
  type DocumentNow,
  type RoomUse,
  decideApproval,
  getApproval,
  launchRuleFor,
  listApprovals,
  markApprovalsUsed,
  requestApproval,
  requestLaunchApproval,
  requireApprovedUse,
  roomApprovals,
  voidForFlow,
} from './service.ts';
