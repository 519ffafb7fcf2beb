/**
 * `pnpm start`: the whole system on this machine. Creates the database if needed, migrates, seeds the
 * subsidiaries, the demo merchant (its portal owner too) and the demo staff, then runs every service in one process tree with
 * prefixed logs (pretty unless LOG_FORMAT=json). Ctrl-C (or SIGTERM) stops them all; each service shuts down gracefully.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import concurrently from 'concurrently';
import pg from 'pg';
import { DEMO_MERCHANT, DEMO_PAYMENT_LINK, DEMO_STAFF, DEV_MASTER_KEY } from '@mm/config';
import { parseEnv as adminEnv, runCommand } from '@mm/admin-cli';
import { DEFAULT_MOCK_PORTS, demoMockAccounts, mockUrls } from '@mm/operator-mocks';
import { merchantDashboardLines } from './start-banner.js';

// Every port can be moved (two systems side by side, the chaos suite's run of this script): the URLs the
// services give each other follow them.
const ports = {
  gateway: process.env.GATEWAY_PORT ?? '3000',
  bridge: process.env.OPERATOR_BRIDGE_PORT ?? '3002',
  simulator: process.env.OPERATOR_SIMULATOR_PORT ?? '3003',
};
// Where customers reach the gateway: the payment page, and the payment links the dashboard shows.
const publicBaseUrl = process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${ports.gateway}`;
const env = {
  NODE_ENV: process.env.NODE_ENV ?? 'development',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/mobilemoney',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  MASTER_KEY: process.env.MASTER_KEY ?? DEV_MASTER_KEY,
  GATEWAY_PORT: ports.gateway,
  PUBLIC_BASE_URL: publicBaseUrl,
  GATEWAY_PUBLIC_URL: process.env.GATEWAY_PUBLIC_URL ?? publicBaseUrl,
  BACKOFFICE_PORT: process.env.BACKOFFICE_PORT ?? '3001',
  // The merchants' dashboard: the back-office's MASTER_KEY, Redis and database (services/merchant-portal/src/env.ts).
  MERCHANT_PORTAL_PORT: process.env.MERCHANT_PORTAL_PORT ?? '3008',
  // The portal's invitations and password resets land in the local mailbox below (maildev), links and all.
  SMTP_URL: process.env.SMTP_URL ?? `smtp://127.0.0.1:${process.env.MAILDEV_SMTP_PORT ?? '1025'}`,
  PORTAL_PUBLIC_URL: process.env.PORTAL_PUBLIC_URL ?? `http://127.0.0.1:${process.env.MERCHANT_PORTAL_PORT ?? '3008'}`,
  OPERATOR_BRIDGE_PORT: ports.bridge,
  // The bridge's callback URL, read by the contract mocks too: the MTN mocks' demo API users are registered for its host.
  OPERATOR_CALLBACK_BASE_URL: process.env.OPERATOR_CALLBACK_BASE_URL ?? `http://127.0.0.1:${ports.bridge}`,
  // /ready and /metrics of the services with public routes (the workers' one port is theirs).
  GATEWAY_INTERNAL_PORT: process.env.GATEWAY_INTERNAL_PORT ?? '3100',
  BACKOFFICE_INTERNAL_PORT: process.env.BACKOFFICE_INTERNAL_PORT ?? '3101',
  OPERATOR_BRIDGE_INTERNAL_PORT: process.env.OPERATOR_BRIDGE_INTERNAL_PORT ?? '3102',
  MERCHANT_PORTAL_INTERNAL_PORT: process.env.MERCHANT_PORTAL_INTERNAL_PORT ?? '3108',
  OPERATOR_SIMULATOR_PORT: ports.simulator,
  OPERATOR_BASE_URL: process.env.OPERATOR_BASE_URL ?? `http://127.0.0.1:${ports.simulator}`,
  WEBHOOK_INBOX_PORT: process.env.WEBHOOK_INBOX_PORT ?? '3004',
  // The demo merchant's webhook inbox runs on this machine.
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? 'true',
  // The simulator can disburse: the demo has cash-outs, and large ones to approve in the back-office.
  DISBURSEMENT_ENABLED: process.env.DISBURSEMENT_ENABLED ?? 'true',
  // Logs for a person at a terminal (pino-pretty, one line per entry); LOG_FORMAT=json for the JSON lines
  // the services write by default. Ignored with NODE_ENV=production, where logs stay JSON.
  LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty',
};
const inboxUrl = `http://127.0.0.1:${env.WEBHOOK_INBOX_PORT}/webhooks`;
// A real SMTP server with a web inbox, on this machine only: every mail the portal sends is read there.
const mailbox = { smtp: process.env.MAILDEV_SMTP_PORT ?? '1025', web: process.env.MAILDEV_WEB_PORT ?? '1080' };
const maildevBin = fileURLToPath(new URL('../node_modules/maildev/bin/maildev', import.meta.url));
// The simulator's sandbox and virtual phone take this token (a new one per run unless set); the phone
// link below carries it once, and the page keeps it as a cookie.
const sandboxToken = process.env.SIM_SANDBOX_TOKEN ?? randomBytes(16).toString('hex');

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.replace(/^\//, '');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

await ensureDatabase(env.DATABASE_URL);
const admin = adminEnv({ ...process.env, ...env, DEMO_WEBHOOK_URL: inboxUrl });
console.log(await runCommand(['migrate'], admin));
await runCommand(['seed'], admin);

// The real operators' contract mocks run as a service of their own (services/operator-mocks, ports 3011-3015):
// their accounts are pointed at them and enabled, so a number of each operator reaches its mock (README, demo numbers).
const mockPorts = {
  mtnCi: Number(process.env.MOCK_MTN_CI_PORT ?? DEFAULT_MOCK_PORTS.mtnCi),
  mtnCm: Number(process.env.MOCK_MTN_CM_PORT ?? DEFAULT_MOCK_PORTS.mtnCm),
  orangeWebpay: Number(process.env.MOCK_ORANGE_WEBPAY_PORT ?? DEFAULT_MOCK_PORTS.orangeWebpay),
  orangeMp: Number(process.env.MOCK_ORANGE_MP_PORT ?? DEFAULT_MOCK_PORTS.orangeMp),
  wave: Number(process.env.MOCK_WAVE_PORT ?? DEFAULT_MOCK_PORTS.wave),
};
// Without the mocks (OPERATOR_MOCKS=off) their service is not started and the accounts are left as they are:
// pointing them at ports where nothing listens would send those numbers to an operator that never answers.
const withMocks = (process.env.OPERATOR_MOCKS ?? 'on') !== 'off';
for (const a of withMocks ? demoMockAccounts(mockUrls(mockPorts)) : []) {
  const account = ['--country', a.countryCode, '--operator', a.operator];
  await runCommand(
    ['operator:set', ...account, '--api', a.api, '--base-url', a.baseUrl, '--settings', JSON.stringify(a.settings)],
    admin,
  );
  await runCommand(['operator:credentials', ...account], admin, {
    readStdin: async () => JSON.stringify(a.credentials),
  });
  await runCommand(['operator:set', ...account, '--enable'], admin);
}

const gateway = `http://127.0.0.1:${env.GATEWAY_PORT}`;
console.log(`
Demo merchant
  api_key     ${DEMO_MERCHANT.apiKey}
  api_secret  ${DEMO_MERCHANT.apiSecret}
Merchant API  ${gateway}/api/v1
Payment link  ${gateway}/l/${DEMO_PAYMENT_LINK.slug}  (QR code ${gateway}/l/${DEMO_PAYMENT_LINK.slug}/qr.png)
Back-office   http://127.0.0.1:${env.BACKOFFICE_PORT}/  (password ${DEMO_STAFF.password})
${DEMO_STAFF.users.map((u) => `  ${u.role.padEnd(9)} ${u.email}`).join('\n')}
${merchantDashboardLines(`http://127.0.0.1:${env.MERCHANT_PORTAL_PORT}`)}
Mail sent by the dashboard (invitations, password resets): http://127.0.0.1:${mailbox.web}/  (SMTP ${mailbox.smtp})
Webhooks received by the demo merchant: http://127.0.0.1:${env.WEBHOOK_INBOX_PORT}/
Virtual phone (confirm pushes by hand):  http://127.0.0.1:${env.OPERATOR_SIMULATOR_PORT}/phone?token=${sandboxToken}
Operators' contract mocks: MTN CI ${mockPorts.mtnCi}, MTN CM ${mockPorts.mtnCm}, Orange WebPay ${mockPorts.orangeWebpay}, Orange mp ${mockPorts.orangeMp}, Wave ${mockPorts.wave} (README, demo numbers)
Readiness and metrics (/ready, /metrics): ports ${env.GATEWAY_INTERNAL_PORT} (gateway), ${env.BACKOFFICE_INTERNAL_PORT} (back-office), ${env.OPERATOR_BRIDGE_INTERNAL_PORT} (bridge), ${env.MERCHANT_PORTAL_INTERNAL_PORT} (merchant portal), 3005-3007 (workers)
Ctrl-C stops everything.
`);

// The operators' records survive a restart, as a real operator's books do (git-ignored): the simulator's and each mock's file.
const recordsDir = process.env.OPERATOR_RECORDS_DIR ?? fileURLToPath(new URL('../.operator-records/', import.meta.url));
const service = (name: string, dir: string, own: Record<string, string> = {}) => ({
  name,
  command: `node --import tsx services/${dir}/src/main.ts`,
  env: { ...env, DEMO_API_SECRET: DEMO_MERCHANT.apiSecret, ...own },
});
const { result } = concurrently(
  [
    service('simulator', 'operator-simulator', { SIM_SANDBOX_TOKEN: sandboxToken, OPERATOR_RECORDS_DIR: recordsDir }),
    ...(withMocks
      ? [
          service('mocks', 'operator-mocks', {
            OPERATOR_RECORDS_DIR: recordsDir,
            MOCK_MTN_CI_PORT: String(mockPorts.mtnCi),
            MOCK_MTN_CM_PORT: String(mockPorts.mtnCm),
            MOCK_ORANGE_WEBPAY_PORT: String(mockPorts.orangeWebpay),
            MOCK_ORANGE_MP_PORT: String(mockPorts.orangeMp),
            MOCK_WAVE_PORT: String(mockPorts.wave),
            MOCK_WAVE_WEBHOOK_URL: `http://127.0.0.1:${env.OPERATOR_BRIDGE_PORT}/operator/callbacks/wave/ci`,
          }),
        ]
      : []),
    service('gateway', 'gateway'),
    // /operators' Health column reads the operator calls of the bridge, expiry and refund workers.
    service('backoffice', 'backoffice', {
      OPERATOR_METRICS_URLS: [
        `http://127.0.0.1:${env.OPERATOR_BRIDGE_INTERNAL_PORT}/metrics`,
        `http://127.0.0.1:${process.env.EXPIRY_WORKER_PORT ?? '3006'}/metrics`,
        `http://127.0.0.1:${process.env.REFUND_WORKER_PORT ?? '3007'}/metrics`,
      ].join(','),
    }),
    service('portal', 'merchant-portal'),
    service('bridge', 'operator-bridge'),
    service('expiry', 'expiry-worker'),
    service('refunds', 'refund-worker'),
    service('webhooks', 'webhook-dispatcher'),
    service('inbox', 'webhook-inbox'),
    {
      name: 'mail',
      command: `node ${maildevBin} --smtp ${mailbox.smtp} --web ${mailbox.web} --ip 127.0.0.1 --web-ip 127.0.0.1`,
    },
  ],
  { prefix: 'name', killOthersOn: ['failure'], killSignal: 'SIGTERM' },
);
await result.then(
  () => process.exit(0),
  () => process.exit(1),
);
