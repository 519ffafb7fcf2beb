/**
 * The merchant dashboard's mails (its own, and the back-office's invitation of a first owner) in French and English: plain text for every client, and the same words as simple
 * HTML (no image, no remote asset). Links are absolute, from the portal's public base URL.
 */
import { merchantRoleName } from '@mm/domain';
import { html, type SafeHtml } from '@mm/web';
import type { MailMessage } from './mailer.js';

export type MailLocale = 'fr' | 'en';
type Locale = MailLocale;

interface Parts {
  subject: string;
  lines: string[];
  action: string;
  link: string;
  after: string[];
}

const paragraphs = (lines: string[]): SafeHtml[] => lines.map((l) => html`<p>${l}</p>`);

function compose(to: string, p: Parts): MailMessage {
  return {
    to,
    subject: p.subject,
    text: [...p.lines, '', `${p.action}: ${p.link}`, '', ...p.after].join('\n'),
    html: html`<!doctype html><html><body style="font-family:sans-serif;max-width:36em">${paragraphs(p.lines)}<p><a href="${p.link}">${p.action}</a></p><p style="word-break:break-all">${p.link}</p>${paragraphs(p.after)}</body></html>`
      .value,
  };
}

const when = (locale: Locale, at: Date) =>
  new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(at) + ' UTC';

export function invitationMail(
  locale: Locale,
  v: { to: string; merchantName: string; role: string; invitedBy: string; link: string; expiresAt: Date },
): MailMessage {
  const role = merchantRoleName(locale, v.role);
  return compose(
    v.to,
    locale === 'fr'
      ? {
          subject: `Invitation à rejoindre ${v.merchantName}`,
          lines: [
            `${v.invitedBy} vous invite à rejoindre ${v.merchantName} sur le tableau de bord marchand, avec le rôle ${role}.`,
          ],
          action: 'Accepter l’invitation',
          link: v.link,
          after: [
            `Ce lien ne sert qu’une fois et expire le ${when(locale, v.expiresAt)}.`,
            'Si vous n’attendiez pas cette invitation, ignorez ce message.',
          ],
        }
      : {
          subject: `Invitation to join ${v.merchantName}`,
          lines: [`${v.invitedBy} invites you to join ${v.merchantName} on the merchant dashboard, as ${role}.`],
          action: 'Accept the invitation',
          link: v.link,
          after: [
            `This link works once and expires on ${when(locale, v.expiresAt)}.`,
            'If you did not expect this invitation, ignore this message.',
          ],
        },
  );
}

export function passwordResetMail(locale: Locale, v: { to: string; link: string; expiresAt: Date }): MailMessage {
  return compose(
    v.to,
    locale === 'fr'
      ? {
          subject: 'Choisir un nouveau mot de passe',
          lines: ['Quelqu’un a demandé à changer le mot de passe de ce compte du tableau de bord marchand.'],
          action: 'Choisir un nouveau mot de passe',
          link: v.link,
          after: [
            `Ce lien ne sert qu’une fois et expire le ${when(locale, v.expiresAt)}.`,
            'Si vous n’avez rien demandé, ignorez ce message : votre mot de passe ne change pas.',
          ],
        }
      : {
          subject: 'Choose a new password',
          lines: ['Someone asked to change the password of this merchant dashboard account.'],
          action: 'Choose a new password',
          link: v.link,
          after: [
            `This link works once and expires on ${when(locale, v.expiresAt)}.`,
            'If you did not ask for it, ignore this message: your password does not change.',
          ],
        },
  );
}
