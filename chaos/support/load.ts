import type { ApiResponse } from '@mm/testing';

export type Api = (
  method: string,
  path: string,
  body?: unknown,
  opts?: { extraHeaders?: Record<string, string> },
) => Promise<ApiResponse>;

export interface LoadOptions {
  /** merchant_order_id prefix, unique per scenario. */
  prefix: string;
  count: number;
  concurrency: number;
  /** Start no new cash-in after this long (a load by duration: count may then be Infinity). */
  forMs?: number;
  /** Last two digits of the customer numbers (decisions 11), used in turn. */
  suffixes: string[];
  /** Every n-th cash-in that succeeds is refunded: half, then the rest (so it ends REVERSED). 0: none. */
  refundEvery?: number;
  /** How long one request may be retried while the gateway is down. */
  retryForMs?: number;
  /** The customer of the i-th cash-in, and the operator it names (none: routed by number); by default +22507070000 and suffixes[i]. */
  customer?: (i: number) => { msisdn: string; operator?: string };
  /** The amount of the i-th cash-in; by default 1 000 to 5 800, spread. */
  amount?: (i: number) => number;
  /** The refunds of the i-th cash-in once SUCCESS (with refundEvery), amounts in turn; by default half, then the rest. */
  refundAmounts?: (i: number, amount: number) => number[];
}

export interface LoadReport {
  transactionIds: string[];
  /** Every HTTP status the gateway answered, with how often; 'network' for no answer at all. */
  statuses: Record<string, number>;
}

const TERMINAL = new Set(['SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED']);
const customer = (suffix: string) => `+22507070000${suffix}`;

/**
 * Merchants' traffic as a real integration sends it: a cash-in, its status followed, refunds of some
 * successes. A request that gets no answer or a 5xx is sent again as a merchant would (a cash-in keeps
 * its merchant_order_id, a refund its Idempotency-Key), so a crash never makes the load create
 * something twice by itself.
 */
export async function runLoad(api: Api, o: LoadOptions): Promise<LoadReport> {
  const report: LoadReport = { transactionIds: [], statuses: {} };
  const send = merchantSender(api, report.statuses, o.retryForMs);

  async function settled(id: string): Promise<{ status: string; amount: number }> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const res = await send('GET', `/api/v1/payments/${id}`);
      const data = res.body?.data as { status: string; amount: number } | undefined;
      if (data && TERMINAL.has(data.status)) return data;
      if (Date.now() > deadline) throw new Error(`cash-in ${id} not settled within 90 s (last ${data?.status})`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  async function refund(id: string, amount: number, key: string): Promise<void> {
    const res = await send(
      'POST',
      '/api/v1/refunds',
      { transaction_id: id, amount, reason: `chaos ${key}` },
      { 'Idempotency-Key': key },
    );
    if (res.status !== 202 && res.status !== 200) throw new Error(`refund of ${id}: ${res.status} ${res.text}`);
  }

  async function flow(i: number): Promise<void> {
    const order = `${o.prefix}-${i}`;
    const amount = o.amount?.(i) ?? 1000 + ((i * 7919) % 49) * 100;
    const who = o.customer?.(i) ?? { msisdn: customer(o.suffixes[i % o.suffixes.length]!) };
    const res = await send('POST', '/api/v1/payments/cashin', {
      merchant_order_id: order,
      amount,
      customer_msisdn: who.msisdn,
      ...(who.operator ? { operator: who.operator } : {}),
    });
    if (res.status !== 202 && res.status !== 200) throw new Error(`cash-in ${order}: ${res.status} ${res.text}`);
    const id = res.body.data.transaction_id as string;
    report.transactionIds.push(id);
    if (!o.refundEvery || i % o.refundEvery !== 0) return;
    const done = await settled(id);
    if (done.status !== 'SUCCESS') return;
    const half = Math.floor(amount / 2);
    const amounts = o.refundAmounts?.(i, amount) ?? [half, amount - half];
    for (const [n, part] of amounts.entries()) await refund(id, part, `${order}-r${n + 1}`);
  }

  let next = 0;
  const until = o.forMs === undefined ? Infinity : Date.now() + o.forMs;
  const workers = Array.from({ length: o.concurrency }, async () => {
    while (next < o.count && Date.now() < until) await flow(next++);
  });
  await Promise.all(workers);
  return report;
}

/**
 * Sends a request as a merchant's integration does: no answer, a 5xx or a replayed signature is sent
 * again (signed anew) until an answer below 500 comes or retryForMs runs out. Counts every answer in
 * `statuses` ('network' for none).
 */
export function merchantSender(api: Api, statuses: Record<string, number>, retryForMs = 60_000) {
  const count = (key: string) => {
    statuses[key] = (statuses[key] ?? 0) + 1;
  };
  return async function send(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse> {
    const deadline = Date.now() + retryForMs;
    for (;;) {
      const res = await api(method, path, body, { extraHeaders: headers }).catch(() => null);
      count(res ? String(res.status) : 'network');
      // The same body signed in the same second is the same signature: a retry must wait for the next
      // second (decisions 2), as a merchant's must.
      const replayed = res?.status === 401 && res.body?.error?.code === 'REQUEST_REPLAYED';
      if (res && res.status < 500 && !replayed) return res;
      if (Date.now() > deadline)
        throw new Error(
          `${method} ${path}: no answer below 500 within the retry window (last ${res?.status ?? 'network error'})`,
        );
      // A 503 says when to come back (Retry-After), and a merchant that hammers an overloaded service
      // sooner only keeps it overloaded; other failures are tried again shortly.
      const retryAfterS = res?.status === 503 ? Number(res.headers.get('retry-after')) : Number.NaN;
      await new Promise((r) =>
        setTimeout(
          r,
          replayed ? 1000 - (Date.now() % 1000) + 10 : Number.isFinite(retryAfterS) ? retryAfterS * 1000 : 200,
        ),
      );
    }
  };
}

/** One client over several gateway instances, each request to the next one in turn (a round-robin balancer). */
export function roundRobin(apis: Api[]): Api {
  let n = 0;
  return (...args) => apis[n++ % apis.length]!(...args);
}
