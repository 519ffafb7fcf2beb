/**
 * Mail out of the portal (invitations, password resets) over SMTP with nodemailer. One transport per
 * process: nodemailer opens a connection per message, so an SMTP server down fails that send only.
 */
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** `url`: smtp://user:pass@host:port (or smtps://); `from`: the From header, e.g. `Shop <no-reply@x>`. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}
