// The paths of contract/calls/flow.ts (zod-free: src/api/flow.ts imports them).
import { csign } from '../call-path.ts';

export const launchFlow = /* @__PURE__ */ csign('launchFlow');
export const getFlowDetail = /* @__PURE__ */ csign('getFlowDetail');
export const listLaunchedFlows = /* @__PURE__ */ csign('listLaunchedFlows');
export const listPendingSignatures = /* @__PURE__ */ csign('listPendingSignatures');
export const cancelFlow = /* @__PURE__ */ csign('cancelFlow');
export const remindSigners = /* @__PURE__ */ csign('remindSigners');
export const signingRoomLogin = /* @__PURE__ */ csign('signingRoomLogin');
export const sendLinkSmsCode = /* @__PURE__ */ csign('sendLinkSmsCode');
export const signingRoomLoginByLinkCode = /* @__PURE__ */ csign('signingRoomLoginByLinkCode');
export const signingRoomLoginByEmbed = /* @__PURE__ */ csign('signingRoomLoginByEmbed');
export const getSigningRoom = /* @__PURE__ */ csign('getSigningRoom');
export const sendSignSmsCode = /* @__PURE__ */ csign('sendSignSmsCode');
export const signDocument = /* @__PURE__ */ csign('signDocument');
export const startRoomFaceAuth = /* @__PURE__ */ csign('startRoomFaceAuth');
export const setSigningPassword = /* @__PURE__ */ csign('setSigningPassword');
export const getSigningPassword = /* @__PURE__ */ csign('getSigningPassword');
export const declineFlow = /* @__PURE__ */ csign('declineFlow');
export const roomRealName = /* @__PURE__ */ csign('roomRealName');
export const roomAcceptAgreement = /* @__PURE__ */ csign('roomAcceptAgreement');
export const roomOpenCompany = /* @__PURE__ */ csign('roomOpenCompany');
export const roomConfirmCompany = /* @__PURE__ */ csign('roomConfirmCompany');
export const getSignerReadiness = /* @__PURE__ */ csign('getSignerReadiness');
export const getAuditTrail = /* @__PURE__ */ csign('getAuditTrail');
export const listMessages = /* @__PURE__ */ csign('listMessages');
export const markMessagesRead = /* @__PURE__ */ csign('markMessagesRead');
export const getQuota = /* @__PURE__ */ csign('getQuota');
