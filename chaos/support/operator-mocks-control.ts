import { demoMockAccounts, type MockRecords, type MockUrls } from '@mm/operator-mocks';
import { waitFor } from '@mm/testing';

export type MockName = keyof MockUrls;
export const MOCK_NAMES = ['mtnCi', 'mtnCm', 'orangeWebpay', 'orangeMp', 'wave'] as const satisfies readonly MockName[];

/**
 * The test's hand on the real operators' contract mocks, which run as a process of their own: their
 * own records of what they did (GET /_mock/records), never their partner APIs.
 */
export class OperatorMocksControl {
  /** Which mock holds the payments of each (country, operator) account, as the accounts were configured. */
  private readonly byAccount: Map<string, MockName>;

  constructor(readonly urls: MockUrls) {
    const nameOf = new Map(MOCK_NAMES.map((n) => [urls[n], n]));
    this.byAccount = new Map(
      demoMockAccounts(urls).map((a) => [`${a.countryCode}/${a.operator}`, nameOf.get(a.baseUrl)!]),
    );
  }

  /** The mock a transaction went to, from its country and operator; null for the simulator (or an operator without a mock). */
  mockOf(t: { countryCode: string; operator: string }): MockName | null {
    return this.byAccount.get(`${t.countryCode}/${t.operator}`) ?? null;
  }

  async recordsOf(name: MockName): Promise<MockRecords> {
    const res = await fetch(`${this.urls[name]}/_mock/records`);
    if (!res.ok) throw new Error(`${name} GET /_mock/records: ${res.status} ${await res.text()}`);
    return (await res.json()) as MockRecords;
  }

  /** Every mock's records, read at (nearly) the same moment. */
  async records(): Promise<Record<MockName, MockRecords>> {
    const all = await Promise.all(MOCK_NAMES.map(async (n) => [n, await this.recordsOf(n)] as const));
    return Object.fromEntries(all) as Record<MockName, MockRecords>;
  }

  /** Queues a fault on a mock's partner API (POST /_mock/faults; each mock's own body, see its faults). */
  async fault(name: MockName, body: Record<string, unknown>): Promise<void> {
    const res = await fetch(`${this.urls[name]}/_mock/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${name} POST /_mock/faults: ${res.status} ${await res.text()}`);
  }

  /** Waits until each mock answers (their process is taken as started once its last one does). */
  async ready(timeoutMs = 15_000): Promise<void> {
    await waitFor(() => this.records(), { what: 'the operator mocks to listen', timeoutMs, intervalMs: 100 });
  }
}
