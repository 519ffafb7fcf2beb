import { setOperatorAccountCredentials, upsertOperatorAccount } from '@mm/db/reference-data';
import { startOperatorMocks, type RunningOperatorMocks } from '@mm/operator-simulator';
import type { System } from './system.js';

/**
 * The real operators' contract mocks for a suite's system, on free ports, with the CI, SN and CM
 * operator accounts pointed at them and enabled (the bridge and workers read them without a restart).
 */
export async function withOperatorMocks(sys: System, o: { outcomeDelayMs?: number; lateConfirmDelayMs?: number } = {}): Promise<RunningOperatorMocks> {
  const mocks = await startOperatorMocks({
    ports: { mtnCi: 0, mtnCm: 0, orangeWebpay: 0, orangeMp: 0, wave: 0 },
    waveWebhookUrl: `${sys.bridgeUrl}/operator/callbacks/wave/ci`,
    // The demo MTN API users registered for the bridge's callback host, as the demo has them.
    providerCallbackHost: new URL(sys.bridgeUrl).hostname,
    outcomeDelayMs: o.outcomeDelayMs ?? 100,
    lateConfirmDelayMs: o.lateConfirmDelayMs ?? 5_000,
    waveAutoPay: true,
  });
  for (const a of mocks.accounts()) {
    await upsertOperatorAccount(sys.db, { countryCode: a.countryCode, operator: a.operator, api: a.api, baseUrl: a.baseUrl, settings: a.settings });
    await setOperatorAccountCredentials(sys.db, sys.box, a.countryCode, a.operator, a.credentials);
    await upsertOperatorAccount(sys.db, { countryCode: a.countryCode, operator: a.operator, api: a.api, enabled: true });
  }
  return mocks;
}
