import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (never a downloaded browser); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// The committed screenshots are refreshed on demand (UPDATE_SCREENSHOTS=1 pnpm test); an ordinary run
// still takes them, into an ignored folder, so a test run never leaves the work tree modified.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCREENSHOTS_DIR =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? join(ROOT, 'docs', 'screenshots')
    : join(ROOT, 'e2e', 'browser', '.screenshots');

/** A cheap Android phone's screen. */
export const VIEWPORT = { width: 360, height: 740 };

/** Fails loudly when the browser is missing: a browser suite that skips itself would pass while testing nothing. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: the browser tests need Debian's chromium ` +
        `(apt-get install -y chromium) or CHROMIUM_PATH set to a chromium binary.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A phone-sized context reading French, as most customers do. */
export function phoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: VIEWPORT,
    locale: 'fr-FR',
    extraHTTPHeaders: { 'Accept-Language': 'fr-FR,fr;q=0.9' },
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
}

/** The merchant's shop: records every request URL it gets, so the test can see where the page sent the customer. */
export interface ReturnServer {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startReturnServer(): Promise<ReturnServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Boutique Test</title><p id="shop">Retour chez le marchand</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Waits for the payment page's live status region to reach a state (no reload: it is the page's own polling). */
export async function waitForStatus(page: Page, status: string, timeout = 15_000): Promise<void> {
  await page.waitForSelector(`#status[data-status="${status}"]`, { timeout });
}

/** Nothing wider than the phone's 360 px screen: no sideways scrolling. */
export const fitsTheScreen = (page: Page) =>
  page.evaluate(() => {
    const w = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
    return w.document.documentElement.scrollWidth <= w.innerWidth;
  });
