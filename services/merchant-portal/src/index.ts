export { parseEnv, type MerchantPortalEnv } from './env.js';
export { startMerchantPortal, type PortalOverrides, type RunningPortal } from './service.js';
export { totpBinding } from './use-cases/sign-in.js';
// `pnpm start` prints the demo owner's otpauth:// URI with the portal's own parameters.
export { newTotpSecret, totpCode, totpUri } from './auth/totp.js';
// The back-office invites a merchant's first owner with the portal's own invitation mail.
export { smtpMailer, type Mailer } from './mail/mailer.js';
export { sendInvitationMail } from './use-cases/invitation-mail.js';
