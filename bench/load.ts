/**
 * The load process (issue 7): autocannon in a process of its own, so the load it generates and the
 * bookkeeping of the benchmark never share an event loop with what is measured. Reads a LoadJob (JSON)
 * on stdin, runs it and prints a LoadResult (JSON) as its last stdout line. A job with a rate is sent
 * paced (support/paced-load.ts) rather than with autocannon's per-second bursts.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { signPayload } from '@mm/domain';
import type { LoadJob, LoadResult } from './support/load-job.js';
import { pacedLoad } from './support/paced-load.js';

const job = JSON.parse(readFileSync(0, 'utf8')) as LoadJob;
let n = 0;
let accepted = 0;
/** Cash-in answers by HTTP status and transaction status, e.g. "202 PENDING". */
const answers: Record<string, number> = {};

const signed = (body: string) => {
  const ts = String(Math.floor(Date.now() / 1000));
  return {
    'content-type': 'application/json', 'x-service-key': job.apiKey!, 'x-service-timestamp': ts,
    'x-service-signature': signPayload(job.apiSecret!, ts, body),
  };
};
const cashinBody = () => JSON.stringify({ merchant_order_id: `${job.prefix}-${++n}`, amount: 1000, customer_msisdn: job.msisdn ?? '+2250707000001' });

function countAnswer(status: number, body: string): void {
  let data: { status?: string } | undefined;
  try { data = (JSON.parse(body) as { data?: { status?: string } }).data; } catch { data = undefined; }
  const answer = `${status} ${data?.status ?? ''}`.trim();
  answers[answer] = (answers[answer] ?? 0) + 1;
  // The simulator confirms at once: a few cash-ins are SUCCESS by the time the gateway reads them back.
  if (answer === '202 PENDING' || answer === '202 SUCCESS') accepted++;
}

const request: autocannon.Request = (() => {
  switch (job.kind) {
    case 'ceiling-insert':
      return { method: 'POST', path: '/rows', setupRequest: (r) => ({ ...r, body: cashinBody(), headers: { 'content-type': 'application/json' } }) };
    case 'ceiling-select':
      return { method: 'GET', setupRequest: (r) => ({ ...r, path: `/rows/${job.ids![n++ % job.ids!.length]}` }) };
    case 'cashin':
      return {
        method: 'POST', path: '/api/v1/payments/cashin',
        setupRequest: (r) => { const body = cashinBody(); return { ...r, body, headers: signed(body) }; },
        onResponse: countAnswer,
      };
    case 'status':
      return { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/v1/payments/${job.ids![n++ % job.ids!.length]}`, headers: signed('') }) };
  }
})();

if (job.rate) {
  if (job.kind !== 'cashin') throw new Error('a fixed rate is for cash-ins');
  const r = await pacedLoad({
    url: job.url, rate: job.rate, durationS: job.durationS, maxSockets: job.connections, onResponse: countAnswer,
    next: () => { const body = cashinBody(); return { method: 'POST', path: '/api/v1/payments/cashin', headers: signed(body), body }; },
  });
  finish({ ...r, rps: r.requests / job.durationS, timeouts: 0 });
} else {
  const result = await autocannon({
    url: job.url, connections: job.connections, duration: job.durationS, requests: [request],
  });
  finish({
    requests: result.requests.total, rps: result.requests.total / (result.duration || job.durationS),
    p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max,
    non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts,
  });
}

function finish(r: Omit<LoadResult, 'accepted' | 'answers' | 'sent'>): void {
  const out: LoadResult = { ...r, accepted: job.kind === 'cashin' ? accepted : null, answers, sent: n };
  console.log(JSON.stringify(out));
}
