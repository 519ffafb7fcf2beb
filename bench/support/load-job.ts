import type { Completed } from './completed.js';

/** What the benchmark asks of the load process (bench/load.ts) and what it answers. */
export interface LoadJob {
  /**
   * `flow`: signed cash-ins to `path` with the load process's own merchant receiver as notify_url,
   * measured to the SUCCESS webhook (completed cash-ins), on the system or on the flow ceiling.
   */
  kind: 'ceiling-insert' | 'ceiling-select' | 'cashin' | 'status' | 'flow';
  url: string;
  /** `flow`: every URL the connections are spread over, in turn (one per gateway instance); `url` alone when absent. */
  urls?: string[];
  /** `flow`: the cash-in route (the gateway's /api/v1/payments/cashin, the flow ceiling's /cashin). */
  path?: string;
  /** `flow`: how long to wait for the webhooks once the load has ended (60 s by default). */
  webhookDeadlineS?: number;
  /** `flow`: also answer when each SUCCESS webhook arrived, for the bench's own settle check. */
  reportArrivals?: boolean;
  connections: number;
  durationS: number;
  /** Fixed offered rate (requests/s over all connections); saturation when absent. */
  rate?: number;
  /** merchant_order_id prefix of the cash-ins, unique per run. */
  prefix: string;
  msisdn?: string;
  apiKey?: string;
  apiSecret?: string;
  /** What the reads read, in turn. */
  ids?: string[];
}

export interface FlowResult extends Completed {
  /** From the end of the load to the last completed cash-in's webhook. */
  drainS: number;
  /**
   * Cash-ins of the load notified SUCCESS, answered 202 or not (those the end of the load cut off): all
   * the cash-ins whose work was done, what the CPU per cash-in is divided by.
   */
  notified: number;
  /** SUCCESS webhooks received again for a cash-in already notified. */
  duplicates: number;
  /** Webhooks whose signature did not verify with the merchant's secret (answered 401, not counted). */
  badSignatures: number;
  /** merchant_order_id → when its first SUCCESS webhook arrived (Unix ms), every cash-in of the prefix; with `reportArrivals`. */
  arrivals?: Record<string, number>;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Cash-ins answered 202 once the operator acknowledged them (PENDING, or already SUCCESS). */
  accepted: number | null;
  /** Cash-in answers by HTTP status and transaction status ("202 PENDING": how many). */
  answers: Record<string, number>;
  sent: number;
  /** The completed-cash-ins measure of a `flow` job. */
  flow: FlowResult | null;
  /** The share of the machine's CPU the hypervisor gave to other guests during the load (runLoad fills it in). */
  stolenPercent?: number;
}
