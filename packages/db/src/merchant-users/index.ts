export {
  confirmTotpEnrolment,
  createMerchantUser,
  findMerchantUserById,
  findMerchantUserForLogin,
  listMerchantUsers,
  type MerchantUserAccount,
  type NewMerchantUser,
  newRecoveryCodes,
  normalizeMerchantUserEmail,
  signOutEverywhere,
  startTotpEnrolment,
  useRecoveryCode,
} from './merchant-users.js';
