/** What the benchmark asks of the load process (bench/load.ts) and what it answers. */
export interface LoadJob {
  kind: 'ceiling-insert' | 'ceiling-select' | 'cashin' | 'status';
  url: string;
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
}
