// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export {
  findUserById,
  findUserByPhone,
  findUsersByPhoneOrName,
  insertUser,
  moveUserPhone,
  noticeEmailOf,
  setNoticeEmail,
  setUserName,
  userIdsWithNameLike,
  usersByIds,
} from './account-queries.ts';
export { companiesOf, hashPassword } from './account-service.ts';
export { actingCompanies, loginFacts } from './hooks.ts';
export { computeLoginInfo } from './login-info.ts';
export { sessionModule } from './routes.ts';
export { endOtherSessions, endSession, setSessionIdentity } from './session-queries.ts';
export { lookupSession, refusalFor, startSession } from './session-service.ts';
export type { LiveSession } from './session-service.ts';
export { consumeSmsCode, sendSmsCode } from './sms-service.ts';
