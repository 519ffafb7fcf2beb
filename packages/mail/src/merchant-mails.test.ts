/** The mailer against a real SMTP server: both parts arrive, in the recipient's language, with the link. */
import { startMailCatcher, type MailCatcher } from './mail-catcher.js';
import { invitationMail, passwordResetMail } from './merchant-mails.js';
import { smtpMailer, type Mailer } from './mailer.js';

describe('mail over SMTP', () => {
  let catcher: MailCatcher;
  let mailer: Mailer;
  beforeAll(async () => {
    catcher = await startMailCatcher();
    mailer = smtpMailer(catcher.url, 'Merchant dashboard <no-reply@portal.test>');
  });
  afterAll(async () => {
    mailer.close();
    await catcher.stop();
  });

  it('sends an invitation in French, text and HTML, with the link and the role', async () => {
    const link = 'https://portal.test/invitations/abc?x=<1>';
    await mailer.send(
      invitationMail('fr', {
        to: 'Awa@Shop.Test',
        merchantName: 'Boutique <Awa>',
        role: 'finance',
        invitedBy: 'Moussa',
        link,
        expiresAt: new Date('2026-12-06T10:00:00Z'),
      }),
    );
    const mail = await catcher.next('awa@shop.test');
    expect(mail.from?.value[0]).toMatchObject({ name: 'Merchant dashboard', address: 'no-reply@portal.test' });
    expect(mail.subject).toBe('Invitation à rejoindre Boutique <Awa>');
    expect(mail.text).toContain(`Accepter l’invitation: ${link}`);
    expect(mail.text).toContain('avec le rôle Finance');
    expect(mail.text).toContain('6 décembre 2026');
    // The HTML escapes what the merchant or the link carry.
    expect(mail.html).toContain('Boutique &lt;Awa&gt;');
    expect(mail.html).toContain('href="https://portal.test/invitations/abc?x=&lt;1&gt;"');
  });

  it('sends a password reset in English', async () => {
    const since = catcher.messages.length;
    await mailer.send(
      passwordResetMail('en', {
        to: 'bob@shop.test',
        link: 'https://portal.test/password-reset/t0k',
        expiresAt: new Date('2026-12-06T10:00:00Z'),
      }),
    );
    const mail = await catcher.next('bob@shop.test', since);
    expect(mail.subject).toBe('Choose a new password');
    expect(mail.text).toContain('Choose a new password: https://portal.test/password-reset/t0k');
    expect(mail.text).toContain('6 December 2026');
  });

  it('fails the send when no SMTP server answers', async () => {
    const dead = smtpMailer('smtp://127.0.0.1:1', 'x@portal.test');
    await expect(dead.send({ to: 'a@b.test', subject: 's', text: 't', html: '<p>t</p>' })).rejects.toThrow();
    dead.close();
  });
});
