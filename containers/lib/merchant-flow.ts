/**
 * What a merchant does against a running stack, through its published ports only: the README's signed
 * curl cash-in (run as the README prints it), the transaction read back until SUCCESS, its webhook in the
 * demo inbox with a valid signature, a refund, a back-office login, the merchant dashboard's sign-in.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TestClient } from '@mm/testing';
import { DEMO_MERCHANT, DEMO_PORTAL_OWNER, DEMO_STAFF } from '@mm/config';
import { totpCode } from '@mm/merchant-portal';
import { signedClient, waitFor, type ApiResponse } from '@mm/testing';
import { ROOT, run } from './podman.js';

export const GATEWAY = 'http://127.0.0.1:3000';
export const BACKOFFICE = 'http://127.0.0.1:3001';
export const INBOX = 'http://127.0.0.1:3004';
export const PORTAL = 'http://127.0.0.1:3008';

export interface Merchant {
  key: string;
  secret: string;
}
export const DEMO: Merchant = { key: DEMO_MERCHANT.apiKey, secret: DEMO_MERCHANT.apiSecret };

export const api = (merchant: Merchant = DEMO) => signedClient(`${GATEWAY}/api/v1`, merchant.key, merchant.secret);

/** The README's first shell block under "Try it: a signed cash-in with curl", exactly as printed there. */
export function readmeCashInScript(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Try it: a signed cash-in with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README: no sh block under "Try it: a signed cash-in with curl"');
  return block[1]!;
}

/** Runs the README's curl cash-in and returns the gateway's answer (202 with the transaction). */
export async function readmeCashIn(): Promise<{ transaction_id: string; status: string }> {
  const out = await run('bash', ['-euo', 'pipefail', '-c', readmeCashInScript()], {
    env: process.env,
    timeoutMs: 60_000,
  });
  const answer = JSON.parse(out) as { data?: { transaction_id: string; status: string } };
  if (!answer.data?.transaction_id) throw new Error(`README cash-in: unexpected answer ${out}`);
  return answer.data;
}

export async function waitForStatus(
  path: string,
  wanted: string,
  merchant: Merchant = DEMO,
  timeoutMs = 60_000,
): Promise<ApiResponse> {
  const call = api(merchant);
  let last: ApiResponse | undefined;
  try {
    return await waitFor(
      async () => {
        last = await call('GET', path);
        return last.body?.data?.status === wanted ? last : undefined;
      },
      { what: `${path} to be ${wanted}`, timeoutMs, intervalMs: 500 },
    );
  } catch (err) {
    // What the API said last, which waitFor's message (made before the first try) cannot hold.
    throw new Error(`${(err as Error).message}; last answer: ${last?.status} ${last?.text.slice(0, 300)}`);
  }
}

/** The demo inbox's record of a webhook for this transaction and status, signature checked by the inbox. */
export async function waitForInboxWebhook(
  transactionId: string,
  status: string,
  timeoutMs = 60_000,
): Promise<{ signature_valid: boolean; body: Record<string, unknown> }> {
  return waitFor(
    async () => {
      const inbox = (await (await fetch(`${INBOX}/webhooks`)).json()) as {
        data: Array<{ signature_valid: boolean; body: Record<string, unknown> }>;
      };
      return inbox.data.find((e) => e.body?.transaction_id === transactionId && e.body?.status === status);
    },
    { what: `the ${status} webhook of ${transactionId} in the demo inbox`, timeoutMs, intervalMs: 500 },
  );
}

/** A full cash-in: the README's curl, SUCCESS read back, the webhook in the inbox. */
export async function cashInToSuccess(): Promise<string> {
  const { transaction_id: id, status } = await readmeCashIn();
  if (status !== 'PENDING') throw new Error(`README cash-in answered ${status}`);
  await waitForStatus(`/payments/${id}`, 'SUCCESS');
  const webhook = await waitForInboxWebhook(id, 'SUCCESS');
  if (!webhook.signature_valid) throw new Error(`the SUCCESS webhook of ${id} has an invalid signature`);
  return id;
}

/**
 * The back-office's own test client (cookies, CSRF token) logged in through the published port; its home
 * page's status. A wrong password answers the login form again (200), so the login's 303 is checked here.
 */
export async function backofficeLogin(
  email: string = DEMO_STAFF.users[0].email,
  password: string = DEMO_STAFF.password,
): Promise<{ client: TestClient; homeStatus: number }> {
  const client = new TestClient(BACKOFFICE);
  const login = await client.logIn(email, password);
  if (login.status !== 303) throw new Error(`back-office: login answered ${login.status}`);
  return { client, homeStatus: (await client.get('/')).status };
}

/**
 * The README's merchant dashboard sign-in through the published port: the demo owner's published password,
 * then the code an authenticator app shows for its published TOTP secret; the home page it lands on.
 */
export async function portalSignIn(): Promise<{
  client: TestClient;
  loginStatus: number;
  home: { status: number; text: string };
}> {
  const client = new TestClient(PORTAL, {}, 'mm_mp_sid');
  const loginStatus = (await client.get('/login')).status;
  const password = await client.post('/login', {
    email: DEMO_PORTAL_OWNER.email,
    password: DEMO_PORTAL_OWNER.password,
  });
  if (password.location !== '/login/code') throw new Error(`portal: password step answered ${password.status}`);
  await client.get('/login/code');
  const code = await client.post('/login/code', { code: totpCode(DEMO_PORTAL_OWNER.totpSecret, Date.now()) });
  if (code.status !== 303) throw new Error(`portal: code step answered ${code.status}`);
  const home = await client.get('/');
  return { client, loginStatus, home: { status: home.status, text: home.text } };
}
