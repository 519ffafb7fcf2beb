import { DEFAULT_MOCK_PORTS } from './mock-env.js';

/**
 * The contract mocks' demo credentials: test values, published on purpose (they open nothing real). Written
 * here once: the mocks accept them, `demoMockAccounts` configures the demo operator accounts with them, and the
 * README's table of them is `demoCredentialRows()` (demo-credentials.test.ts holds the one against the other),
 * so a developer can point an operator's own client library at a mock.
 */
export const DEMO_MTN = {
  /** The Ocp-Apim-Subscription-Key of each product (MTN gives one per product). */
  subscriptionKeys: {
    collection: 'demo-collection-subscription-key',
    disbursement: 'demo-disbursement-subscription-key',
  },
  /** The API user (a UUID v4) and API key of each product, as MTN's provisioning would have created them. */
  apiUsers: {
    collection: { userId: '6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', apiKey: 'demo-collection-api-key' },
    disbursement: { userId: '7a2c3d4e-5f60-4b7c-9d8e-0f1a2b3c4d5e', apiKey: 'demo-disbursement-api-key' },
  },
  /** X-Target-Environment of each mock: the live names of Côte d'Ivoire and Cameroon. */
  targetEnvironments: { mtnCi: 'mtnivorycoast', mtnCm: 'mtncameroon' },
} as const;

export const DEMO_ORANGE_WEBPAY = {
  clientId: 'wp-client',
  clientSecret: 'wp-secret',
  merchantKey: 'wp-merchant-key',
} as const;

export const DEMO_ORANGE_MP = {
  clientId: 'mp-user',
  clientSecret: 'mp-password',
  xAuthToken: 'mp-x-auth',
  pin: '2222',
  channelUserMsisdn: '691234567',
} as const;

export const DEMO_WAVE = {
  apiKey: 'wave_ci_sandbox_mockDemoKey0123456789',
  webhookSecret: 'wave_ci_WHS_mockDemoSigningSecret',
} as const;

/** One row of the README's table: the operator account's name of the credential (or setting), and what the operator calls it. */
export interface DemoCredentialRow {
  mock: string;
  port: string;
  name: string;
  value: string;
  purpose: string;
}

/** The README's table "demo credentials of the contract mocks", at the mocks' default ports. */
export function demoCredentialRows(): DemoCredentialRow[] {
  const p = DEFAULT_MOCK_PORTS;
  const mtn = { mock: 'MTN MoMo CI, CM', port: `${p.mtnCi}, ${p.mtnCm}` };
  const product = (name: 'collection' | 'disbursement', title: string, paths: string): DemoCredentialRow[] => [
    {
      ...mtn,
      name: `${name}SubscriptionKey`,
      value: DEMO_MTN.subscriptionKeys[name],
      purpose: `${title}'s \`Ocp-Apim-Subscription-Key\` header, on \`POST /${name}/token/\` and every ${paths}`,
    },
    {
      ...mtn,
      name: `${name}ApiUser`,
      value: DEMO_MTN.apiUsers[name].userId,
      purpose: `${title}'s API user: the user of the Basic auth of \`POST /${name}/token/\`; registered for the host of the bridge's \`OPERATOR_CALLBACK_BASE_URL\` (its \`providerCallbackHost\`, \`127.0.0.1\` by default): an \`X-Callback-Url\` on another host is \`500 INVALID_CALLBACK_URL_HOST\``,
    },
    {
      ...mtn,
      name: `${name}ApiKey`,
      value: DEMO_MTN.apiUsers[name].apiKey,
      purpose: `${title}'s API key: the password of that Basic auth`,
    },
  ];
  const mp = { mock: 'Orange mp', port: String(p.orangeMp) };
  const webpay = { mock: 'Orange WebPay', port: String(p.orangeWebpay) };
  const wave = { mock: 'Wave', port: String(p.wave) };
  return [
    ...product('collection', 'Collection', '`/collection/v1_0/...` call'),
    ...product('disbursement', 'Disbursement', '`/disbursement/v1_0/...` call (refunds, transfers)'),
    {
      mock: 'MTN MoMo CI',
      port: String(p.mtnCi),
      name: 'targetEnvironment',
      value: DEMO_MTN.targetEnvironments.mtnCi,
      purpose:
        'a setting, not a secret: the `X-Target-Environment` header (another one is `500 NOT_ALLOWED_TARGET_ENVIRONMENT`)',
    },
    {
      mock: 'MTN MoMo CM',
      port: String(p.mtnCm),
      name: 'targetEnvironment',
      value: DEMO_MTN.targetEnvironments.mtnCm,
      purpose: 'the same, for Cameroon',
    },
    {
      ...webpay,
      name: 'clientId',
      value: DEMO_ORANGE_WEBPAY.clientId,
      purpose: 'the OAuth client: the user of the Basic auth of `POST /oauth/v3/token`',
    },
    { ...webpay, name: 'clientSecret', value: DEMO_ORANGE_WEBPAY.clientSecret, purpose: 'its password' },
    {
      ...webpay,
      name: 'merchantKey',
      value: DEMO_ORANGE_WEBPAY.merchantKey,
      purpose: 'the `merchant_key` of every `POST .../webpayment`',
    },
    {
      ...mp,
      name: 'clientId',
      value: DEMO_ORANGE_MP.clientId,
      purpose: "the API user's login: the user of the Basic auth of `POST /token`",
    },
    { ...mp, name: 'clientSecret', value: DEMO_ORANGE_MP.clientSecret, purpose: 'its password' },
    {
      ...mp,
      name: 'xAuthToken',
      value: DEMO_ORANGE_MP.xAuthToken,
      purpose: 'the `X-AUTH-TOKEN` header of every call after the token',
    },
    {
      ...mp,
      name: 'pin',
      value: DEMO_ORANGE_MP.pin,
      purpose: "the merchant wallet's PIN, the `pin` of every `POST .../mp/pay`",
    },
    {
      ...mp,
      name: 'channelUserMsisdn',
      value: DEMO_ORANGE_MP.channelUserMsisdn,
      purpose: "a setting, not a secret: the merchant wallet's number, the `channelUserMsisdn` of every pay",
    },
    {
      ...wave,
      name: 'apiKey',
      value: DEMO_WAVE.apiKey,
      purpose: "the wallet's API key: `Authorization: Bearer <key>` on every `/v1` call (Checkout, Payout, Balance)",
    },
    {
      ...wave,
      name: 'webhookSecret',
      value: DEMO_WAVE.webhookSecret,
      purpose: "the signing secret of its webhooks' `Wave-Signature` header",
    },
  ];
}

/** A row as the README writes it. */
export const markdownRow = (r: DemoCredentialRow): string =>
  `| ${r.mock} | ${r.port} | \`${r.name}\` | \`${r.value}\` | ${r.purpose} |`;
