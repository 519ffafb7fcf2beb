export { smtpMailer, type Mailer, type MailMessage } from './mailer.js';
export { invitationMail, passwordResetMail, type MailLocale } from './merchant-mails.js';
export { invitationPath, sendInvitationMail, type InvitationMailDeps } from './invitation-mail.js';
