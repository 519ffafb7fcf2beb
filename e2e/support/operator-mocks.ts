import { setOperatorAccountCredentials, upsertOperatorAccount } from '@mm/db/operator-accounts';
import { startOperatorMocks, type OperatorMocksOptions, type RunningOperatorMocks } from '@mm/operator-mocks';
import type { System } from './system.js';

/**
 * The real operators' contract mocks for a suite's system, on free ports, with the CI, SN and CM
 * operator accounts pointed at them and enabled (the bridge and workers read them without a restart).
 */
export async function withOperatorMocks(sys: System, o: MocksOptions = {}): Promise<RunningOperatorMocks> {
  const mocks = await startMocks(sys, { mtnCi: 0, mtnCm: 0, orangeWebpay: 0, orangeMp: 0, wave: 0 }, o);
  for (const a of mocks.accounts()) {
    await upsertOperatorAccount(sys.db, {
      countryCode: a.countryCode,
      operator: a.operator,
      api: a.api,
      baseUrl: a.baseUrl,
      settings: a.settings,
    });
    await setOperatorAccountCredentials(sys.db, sys.box, a.countryCode, a.operator, a.credentials);
    await upsertOperatorAccount(sys.db, {
      countryCode: a.countryCode,
      operator: a.operator,
      api: a.api,
      enabled: true,
    });
  }
  return mocks;
}

/** Stops the mocks and starts them again on their ports, so the accounts still point at them (what they keep: `recordsDir`). */
export async function restartOperatorMocks(
  sys: System,
  mocks: RunningOperatorMocks,
  o: MocksOptions = {},
): Promise<RunningOperatorMocks> {
  const port = (u: string) => Number(new URL(u).port);
  const { urls } = mocks;
  await mocks.close();
  return startMocks(
    sys,
    {
      mtnCi: port(urls.mtnCi),
      mtnCm: port(urls.mtnCm),
      orangeWebpay: port(urls.orangeWebpay),
      orangeMp: port(urls.orangeMp),
      wave: port(urls.wave),
    },
    o,
  );
}

interface MocksOptions {
  outcomeDelayMs?: number;
  lateConfirmDelayMs?: number;
  recordsDir?: string;
  /** false: Wave's launch page waits for the customer's Pay (a browser test clicks it); true by default. */
  waveAutoPay?: boolean;
}

function startMocks(sys: System, ports: OperatorMocksOptions['ports'], o: MocksOptions): Promise<RunningOperatorMocks> {
  return startOperatorMocks({
    ports,
    waveWebhookUrl: `${sys.bridgeUrl}/operator/callbacks/wave/ci`,
    // The demo MTN API users registered for the bridge's callback host, as the demo has them.
    providerCallbackHost: new URL(sys.bridgeUrl).hostname,
    outcomeDelayMs: o.outcomeDelayMs ?? 100,
    lateConfirmDelayMs: o.lateConfirmDelayMs ?? 5_000,
    waveAutoPay: o.waveAutoPay ?? true,
    recordsDir: o.recordsDir ?? null,
  });
}
