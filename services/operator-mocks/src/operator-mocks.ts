import path from 'node:path';
import { IN_MEMORY, type Log, openRecordJournal, type RecordJournal } from '@mm/fake-operator';
import { DEMO_MTN, DEMO_ORANGE_MP, DEMO_ORANGE_WEBPAY } from './demo-credentials.js';
import { demoApiUsers, DEMO_SUBSCRIPTION_KEYS, startMtnMomoMock, type RunningMtnMomoMock } from './mtn-momo/index.js';
import { startOrangeMpMock } from './orange-mp/app.js';
import { startOrangeWebpayMock } from './orange-webpay/app.js';
import { DEMO_WAVE_API_KEY, DEMO_WAVE_WEBHOOK_SECRET, startWaveMock } from './wave/wave-mock.js';

export interface OperatorMocksOptions {
  host?: string;
  /** 0 picks free ports (tests). */
  ports: { mtnCi: number; mtnCm: number; orangeWebpay: number; orangeMp: number; wave: number };
  /** Where the Wave mock posts its signed webhooks (the bridge's route of the Wave account). */
  waveWebhookUrl: string | null;
  outcomeDelayMs: number;
  lateConfirmDelayMs: number;
  /** false: a Wave customer pays on the launch page (the demo); true: outcomes by number only (tests). */
  waveAutoPay: boolean;
  /**
   * The host the demo MTN API users were registered for (MTN's providerCallbackHost): the host of the bridge's
   * OPERATOR_CALLBACK_BASE_URL. MTN refuses a push whose X-Callback-Url is on another (500 INVALID_CALLBACK_URL_HOST).
   */
  providerCallbackHost: string;
  /**
   * OPERATOR_RECORDS_DIR: each mock keeps its records (requests to pay, web payments, pays, sessions, payouts...)
   * in its own file there (mtn-ci.jsonl, mtn-cm.jsonl, orange-webpay.jsonl, orange-mp.jsonl, wave.jsonl),
   * restored at start. Absent: in memory only.
   */
  recordsDir?: string | null;
  /** Where a journal's warnings go (a torn last line dropped at start). */
  log?: Log;
}

/** One operator account as `pnpm admin operator:set` and `operator:credentials` configure it. */
export interface MockAccount {
  countryCode: string;
  operator: string;
  api: string;
  baseUrl: string;
  settings: Record<string, unknown>;
  credentials: Record<string, string>;
}

export interface RunningOperatorMocks {
  urls: Record<keyof OperatorMocksOptions['ports'], string>;
  /** Each mock's control (its faults, scripted outcomes, the customer's actions on its pages), for tests. */
  controls: {
    mtnCi: RunningMtnMomoMock['control'];
    mtnCm: RunningMtnMomoMock['control'];
    orangeWebpay: Awaited<ReturnType<typeof startOrangeWebpayMock>>['control'];
    orangeMp: Awaited<ReturnType<typeof startOrangeMpMock>>['control'];
    wave: Awaited<ReturnType<typeof startWaveMock>>['control'];
  };
  /** The operator accounts of CI, SN and CM pointed at these mocks. */
  accounts(): MockAccount[];
  close(): Promise<void>;
}

const mtnCredentials = () => {
  const { collection, disbursement } = DEMO_MTN.apiUsers;
  return {
    collectionSubscriptionKey: DEMO_SUBSCRIPTION_KEYS.collection,
    collectionApiUser: collection.userId,
    collectionApiKey: collection.apiKey,
    disbursementSubscriptionKey: DEMO_SUBSCRIPTION_KEYS.disbursement,
    disbursementApiUser: disbursement.userId,
    disbursementApiKey: disbursement.apiKey,
  };
};

/**
 * The contract mocks of the real operators, each on its own port as each operator has its own host:
 * MTN MoMo (one per target environment: Côte d'Ivoire and Cameroon), Orange Money WebPay (CI, SN),
 * Orange Money mp (CM) and Wave (CI, SN). Outcomes by the number's last two digits (each mock's header).
 */
export async function startOperatorMocks(o: OperatorMocksOptions): Promise<RunningOperatorMocks> {
  const host = o.host ?? '127.0.0.1';
  const delays = { outcomeDelayMs: o.outcomeDelayMs, lateConfirmDelayMs: o.lateConfirmDelayMs };
  // The demo users are provisioned for the bridge's callback host, so MTN's check of X-Callback-Url stays on.
  const mtn = {
    ...delays,
    disbursementDelayMs: o.outcomeDelayMs,
    apiUsers: demoApiUsers(o.providerCallbackHost),
    host,
  };
  const journals = {
    mtnCi: journal(o, 'mtn-ci'),
    mtnCm: journal(o, 'mtn-cm'),
    orangeWebpay: journal(o, 'orange-webpay'),
    orangeMp: journal(o, 'orange-mp'),
    wave: journal(o, 'wave'),
  };
  // Each market's own currency: the account's balance is in it.
  const mtnCi = await startMtnMomoMock({
    ...mtn,
    port: o.ports.mtnCi,
    targetEnvironment: DEMO_MTN.targetEnvironments.mtnCi,
    currencies: ['XOF'],
    records: journals.mtnCi,
  });
  const mtnCm = await startMtnMomoMock({
    ...mtn,
    port: o.ports.mtnCm,
    targetEnvironment: DEMO_MTN.targetEnvironments.mtnCm,
    currencies: ['XAF'],
    records: journals.mtnCm,
  });
  const webpay = await startOrangeWebpayMock({
    ...DEMO_ORANGE_WEBPAY,
    ...delays,
    port: o.ports.orangeWebpay,
    host,
    records: journals.orangeWebpay,
  });
  const mp = await startOrangeMpMock({
    ...DEMO_ORANGE_MP,
    ...delays,
    port: o.ports.orangeMp,
    host,
    records: journals.orangeMp,
  });
  const wave = await startWaveMock({
    ...delays,
    port: o.ports.wave,
    host,
    apiKey: DEMO_WAVE_API_KEY,
    webhookSecret: DEMO_WAVE_WEBHOOK_SECRET,
    webhookUrl: o.waveWebhookUrl,
    autoPay: o.waveAutoPay,
    records: journals.wave,
  });
  const urls = { mtnCi: mtnCi.url, mtnCm: mtnCm.url, orangeWebpay: webpay.url, orangeMp: mp.url, wave: wave.url };
  return {
    urls,
    controls: {
      mtnCi: mtnCi.control,
      mtnCm: mtnCm.control,
      orangeWebpay: webpay.control,
      orangeMp: mp.control,
      wave: wave.control,
    },
    accounts: () => demoMockAccounts(urls),
    async close() {
      await Promise.all([mtnCi.close(), mtnCm.close(), webpay.close(), mp.close(), wave.close()]);
      for (const j of Object.values(journals)) j.close();
    },
  };
}

/** One mock's journal in the records directory, or none. */
function journal(o: OperatorMocksOptions, name: string): RecordJournal {
  return o.recordsDir
    ? openRecordJournal(path.join(o.recordsDir, `${name}.jsonl`), (event, fields) => o.log?.(event, fields, 'warn'))
    : IN_MEMORY;
}

export type MockUrls = RunningOperatorMocks['urls'];

/** The mocks' base URLs when they listen on `ports` of this machine (what `pnpm start` configures). */
export function mockUrls(ports: OperatorMocksOptions['ports'], host = '127.0.0.1'): MockUrls {
  const at = (port: number) => `http://${host}:${port}`;
  return {
    mtnCi: at(ports.mtnCi),
    mtnCm: at(ports.mtnCm),
    orangeWebpay: at(ports.orangeWebpay),
    orangeMp: at(ports.orangeMp),
    wave: at(ports.wave),
  };
}

/** The operator accounts of CI, SN and CM pointed at the mocks, with the mocks' demo credentials. */
export function demoMockAccounts(urls: MockUrls): MockAccount[] {
  const waveAccount = (countryCode: string): MockAccount => ({
    countryCode,
    operator: 'WAVE',
    api: 'wave',
    baseUrl: urls.wave,
    settings: {},
    credentials: { apiKey: DEMO_WAVE_API_KEY, webhookSecret: DEMO_WAVE_WEBHOOK_SECRET },
  });
  const webpayAccount = (countryCode: string): MockAccount => ({
    countryCode,
    operator: 'ORANGE',
    api: 'orange-webpay',
    baseUrl: urls.orangeWebpay,
    settings: { countryPath: countryCode.toLowerCase() },
    credentials: { ...DEMO_ORANGE_WEBPAY },
  });
  return [
    {
      countryCode: 'CI',
      operator: 'MTN',
      api: 'mtn-momo',
      baseUrl: urls.mtnCi,
      settings: { targetEnvironment: DEMO_MTN.targetEnvironments.mtnCi },
      credentials: mtnCredentials(),
    },
    {
      countryCode: 'CM',
      operator: 'MTN',
      api: 'mtn-momo',
      baseUrl: urls.mtnCm,
      settings: { targetEnvironment: DEMO_MTN.targetEnvironments.mtnCm },
      credentials: mtnCredentials(),
    },
    webpayAccount('CI'),
    webpayAccount('SN'),
    {
      countryCode: 'CM',
      operator: 'ORANGE',
      api: 'orange-mp',
      baseUrl: urls.orangeMp,
      settings: { channelUserMsisdn: DEMO_ORANGE_MP.channelUserMsisdn },
      credentials: {
        clientId: DEMO_ORANGE_MP.clientId,
        clientSecret: DEMO_ORANGE_MP.clientSecret,
        xAuthToken: DEMO_ORANGE_MP.xAuthToken,
        pin: DEMO_ORANGE_MP.pin,
      },
    },
    waveAccount('CI'),
    waveAccount('SN'),
  ];
}
