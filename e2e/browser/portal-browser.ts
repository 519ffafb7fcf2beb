import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PORTAL_PASSWORD, type PortalUserLogin } from '../support/portal.js';

/** What the merchant portal's browser suites share: pages per language and size, and the two-step sign-in. */
export const DESK = { width: 1280, height: 900 };
export type Lang = 'fr' | 'en';

export class PortalBrowser {
  private readonly contexts: BrowserContext[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly portalUrl: () => string,
  ) {}

  /** A page of its own browser context (its own cookies), speaking `lang`. */
  async newPage(lang: Lang, viewport = DESK): Promise<Page> {
    const context = await this.browser.newContext({
      viewport,
      locale: lang === 'fr' ? 'fr-FR' : 'en-GB',
      extraHTTPHeaders: { 'Accept-Language': lang === 'fr' ? 'fr-FR,fr;q=0.9' : 'en-GB,en;q=0.9' },
    });
    this.contexts.push(context);
    return context.newPage();
  }

  /** Both steps, as a person does: the password, then the authenticator's code; `shot` photographs each. */
  async signIn(page: Page, user: PortalUserLogin, shot?: (name: string) => Promise<void>): Promise<void> {
    const url = this.portalUrl();
    // The home page first: a signed-out visitor is sent to the sign-in.
    await page.goto(`${url}/`);
    await page.waitForURL(/\/login/);
    if (shot) await shot('sign-in');
    await page.fill('#email', user.email);
    await page.fill('#password', PORTAL_PASSWORD);
    await page.click('#sign-in-form button[type="submit"]');
    await page.waitForURL(/\/login\/code$/);
    if (shot) await shot('code');
    await page.fill('#code', user.code());
    await page.click('#code-form button[type="submit"]');
    await page.waitForURL(`${url}/`);
  }

  async close(): Promise<void> {
    for (const c of this.contexts) await c.close();
  }
}

/** How wide the page is drawn: wider than the screen means it scrolls sideways (a wide table scrolls in its own box). */
export function pageWidth(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
        .scrollWidth,
  );
}
