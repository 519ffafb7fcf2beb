export { createStaffUser, findStaffByEmail, findStaffById, listStaff, setStaffDisabled, normalizeStaffEmail, type StaffAccount, type NewStaffUser } from '../staff.js';
export { verifyPassword, dummyVerifyPassword, generatePassword, DEFAULT_SCRYPT_PARAMS, type ScryptParams } from '../staff-password.js';
export { recordAudit, listAudit, type AuditEntry, type AuditInput, type AuditQuery, type AuditPage } from '../audit-log.js';
export { verifyAuditChain, GENESIS_HASH, type AuditChainReport, type ChainAnchor, type ChainBreak, type ChainRow } from '../audit-chain.js';
