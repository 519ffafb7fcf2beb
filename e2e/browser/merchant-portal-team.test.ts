import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { distinctFreePorts, waitFor } from '@mm/testing';
import { startSystem, type System } from '../support/system.js';
import { startSystemPortal } from '../support/portal.js';
import { DESK, pageWidth, PortalBrowser } from './portal-browser.js';
import { launchBrowser, screenshot, VIEWPORT } from './support.js';

/**
 * An invitation followed from the mailbox, in a real browser (issue 42 point 6): the owner invites from
 * the Team page, the mail arrives at maildev (the mailbox `pnpm start` runs, with its web inbox), the
 * invitee opens it there and follows its link, sets a password and lands signed in with the role given;
 * the link then works no more. Screenshots of the Team page: docs/screenshots/portal-*-team.
 */
const MAILDEV = fileURLToPath(new URL('../../node_modules/maildev/bin/maildev', import.meta.url));

let sys: System;
let portal: Awaited<ReturnType<typeof startSystemPortal>>;
let browser: Browser;
let pages: PortalBrowser;
let maildev: ChildProcess;
let inbox: string;

interface InboxMail {
  id: string;
  subject: string;
  to: { address: string }[];
}

beforeAll(async () => {
  const port = distinctFreePorts();
  const [smtpPort, webPort, portalPort] = [await port(), await port(), await port()];
  maildev = spawn(
    process.execPath,
    [MAILDEV, '--smtp', String(smtpPort), '--web', String(webPort), '--ip', '127.0.0.1', '--web-ip', '127.0.0.1'],
    { stdio: 'ignore' },
  );
  inbox = `http://127.0.0.1:${webPort}`;
  await waitFor(async () => (await fetch(`${inbox}/email`).catch(() => null))?.ok, { what: 'maildev web inbox' });
  browser = await launchBrowser();
  sys = await startSystem();
  portal = await startSystemPortal(sys, {
    MERCHANT_PORTAL_PORT: String(portalPort),
    PORTAL_PUBLIC_URL: `http://127.0.0.1:${portalPort}`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  });
  pages = new PortalBrowser(browser, () => portal.url);
}, 60_000);
afterAll(async () => {
  await pages?.close();
  await browser?.close();
  await portal?.stop();
  await sys?.stop();
  maildev?.kill();
});

async function mailTo(address: string): Promise<InboxMail> {
  return waitFor(
    async () => {
      const mails = (await (await fetch(`${inbox}/email`)).json()) as InboxMail[];
      return mails.find((m) => m.to.some((t) => t.address === address));
    },
    { what: `the mail to ${address} in the inbox` },
  );
}

describe('a team invitation in a browser', () => {
  it('is sent from the Team page, opened in the mailbox, followed, and works once', async () => {
    const owner = await portal.user('owner');
    const ownerPage = await pages.newPage('en');
    await pages.signIn(ownerPage, owner);
    await ownerPage.goto(`${portal.url}/team`);
    await ownerPage.fill('#invite-email', 'new.dev@boutique.test');
    await ownerPage.selectOption('#invite-role', 'developer');
    await ownerPage.selectOption('#invite-locale', 'fr');
    await ownerPage.click('#invite-form button[type="submit"]');
    await ownerPage.waitForSelector('#team-notice');
    await expect(ownerPage.locator('#invitations-table').innerText()).resolves.toContain('new.dev@boutique.test');

    const mail = await mailTo('new.dev@boutique.test');
    expect(mail.subject).toBe('Invitation à rejoindre Boutique Test');
    // The invitee, in a browser of their own: the mail as the inbox shows it, then its link.
    const invitee = await pages.newPage('fr', VIEWPORT);
    await invitee.goto(`${inbox}/email/${mail.id}/html`);
    await invitee.click('a:has-text("Accepter l’invitation")');
    await invitee.waitForURL(new RegExp(`^${portal.url}/invitations/`));
    const link = invitee.url();
    await expect(invitee.locator('#invitation-intro').innerText()).resolves.toContain('Développeur');
    expect(await pageWidth(invitee)).toBeLessThanOrEqual(VIEWPORT.width);
    await screenshot(invitee, 'portal-phone-fr-invitation');
    await invitee.fill('#name', 'Awa Developer');
    await invitee.fill('#password', 'a-long-new-password-1');
    await invitee.fill('#confirm', 'a-long-new-password-1');
    await invitee.click('#accept-form button[type="submit"]');
    await invitee.waitForURL(`${portal.url}/`);
    await expect(invitee.locator('#user-role').innerText()).resolves.toBe('Développeur');

    const member = await sys.db.merchantUser.findFirstOrThrow({ where: { email: 'new.dev@boutique.test' } });
    expect(member).toMatchObject({ merchantId: sys.merchant.id, role: 'developer', name: 'Awa Developer' });
    await ownerPage.reload();
    await expect(ownerPage.locator('#members-table').innerText()).resolves.toContain('new.dev@boutique.test');

    // Spent: the same link again answers that it no longer works, and creates no one.
    const again = await pages.newPage('fr');
    const answer = await again.goto(link);
    expect(answer?.status()).toBe(410);
    await expect(again.locator('#link-gone').isVisible()).resolves.toBe(true);
    expect(await sys.db.merchantUser.count({ where: { email: 'new.dev@boutique.test' } })).toBe(1);
  });

  for (const lang of ['fr', 'en'] as const) {
    it(`shows the Team page on a phone and on a desk, in ${lang === 'fr' ? 'French' : 'English'}`, async () => {
      const owner = await portal.user('owner');
      const phone = await pages.newPage(lang, VIEWPORT);
      await pages.signIn(phone, owner);
      await phone.goto(`${portal.url}/team`);
      await screenshot(phone, `portal-phone-${lang}-team`);
      expect(await pageWidth(phone)).toBeLessThanOrEqual(VIEWPORT.width);
      const desk = await pages.newPage(lang, DESK);
      await pages.signIn(desk, await portal.user('admin'));
      await desk.goto(`${portal.url}/team`);
      await screenshot(desk, `portal-desk-${lang}-team`);
    });
  }
});
