import Joi from 'joi';

/**
 * The `mail` fragment: how the merchant portal's mails (invitations, password resets) go out, for the
 * portal and for the back-office, which invites a merchant's first owner with the same mail.
 */
export interface MailEnv {
  /** smtp://[user:pass@]host:port, or smtps://. */
  SMTP_URL: string;
  /** The mails' From header. */
  MAIL_FROM: string;
  /** The portal as merchants reach it (https://dashboard.example.com): the links in mails start with it. */
  PORTAL_PUBLIC_URL: string;
}

export const mail = {
  // The local mailbox of `pnpm start` by default; a real deployment names its own relay and address.
  SMTP_URL: Joi.string()
    .uri({ scheme: ['smtp', 'smtps'] })
    .default('smtp://127.0.0.1:1025'),
  MAIL_FROM: Joi.string().max(200).default('Merchant dashboard <no-reply@localhost>'),
  PORTAL_PUBLIC_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .replace(/\/+$/, '')
    .default('http://127.0.0.1:3008'),
};
