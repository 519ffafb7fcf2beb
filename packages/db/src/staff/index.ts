export { type AuditChainReport, type ChainAnchor, verifyAuditChain } from './audit-chain.js';
export { type AuditEntry, type AuditInput, type AuditQuery, listAudit, recordAudit } from './audit-log.js';
export { dummyVerifyPassword, generatePassword, hashPassword, verifyPassword } from './staff-password.js';
export {
  createStaffUser,
  findStaffByEmail,
  findStaffById,
  listStaff,
  normalizeStaffEmail,
  setStaffDisabled,
  type StaffAccount,
} from './staff.js';
