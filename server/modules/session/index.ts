// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export {
  type User,
  createSignerAccount,
  findUserById,
  findUserByPhone,
  findUsersByPhoneOrName,
  movePhone,
  noticeEmailOf,
  renameUser,
  setNoticeEmail,
  switchSessionIdentity,
  userIdsWithNameLike,
  usersByIds,
} from './users.ts';
export { companiesOf, hashPassword } from './account-service.ts';
export { actingCompanies, loginFacts } from './hooks.ts';
export { computeLoginInfo } from './login-info.ts';
export { lookupSession, refusalFor, startSession } from './session-service.ts';
export type { LiveSession } from './session-service.ts';
export { consumeSmsCode, sendSmsCode } from './sms-service.ts';
