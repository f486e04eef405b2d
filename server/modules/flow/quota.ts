// The flow module's quota API. The quota itself (starter allowance + packages, reservation order, expiry)
// lives in server/modules/package/quota.ts; launch reserves (reserveUnit, in its transaction), completion
// uses (consumeUnit) and cancel/decline/expiry release (releaseUnit) the unit of that one flow.
export {
  type Account,
  type Quota,
  consumeUnit,
  quotaLoginFields,
  quotaOf,
  releaseUnit,
  reserveUnit,
} from '../package/quota.ts';
