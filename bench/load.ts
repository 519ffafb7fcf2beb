/**
 * The load process (issue 7): autocannon in a process of its own, so the load it generates and the
 * bookkeeping of the benchmark never share an event loop with what is measured. Reads a LoadJob (JSON)
 * on stdin, runs it and prints a LoadResult (JSON) as its last stdout line. A job with a rate is sent
 * paced (support/paced-load.ts) rather than with autocannon's per-second bursts.
 *
 * A `flow` job measures completed cash-ins: the merchant's webhook receiver is an HTTP server of this
 * process, every cash-in names it as notify_url, and a cash-in is completed when it was answered 202
 * during the load and its signed SUCCESS webhook arrived (support/completed.ts). After the load it waits
 * for the webhooks (webhookDeadlineS, 60 s); those that never came are lost.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import autocannon from 'autocannon';
import { signatureMatches, signPayload } from '@mm/domain';
import { completedCashins } from './support/completed.js';
import type { FlowResult, LoadJob, LoadResult } from './support/load-job.js';
import { pacedLoad } from './support/paced-load.js';

const job = JSON.parse(readFileSync(0, 'utf8')) as LoadJob;
let n = 0;
let accepted = 0;
/** Cash-in answers by HTTP status and transaction status, e.g. "202 PENDING". */
const answers: Record<string, number> = {};

const signed = (body: string) => {
  const ts = String(Math.floor(Date.now() / 1000));
  return {
    'content-type': 'application/json',
    'x-service-key': job.apiKey!,
    'x-service-timestamp': ts,
    'x-service-signature': signPayload(job.apiSecret!, ts, body),
  };
};
const cashinBody = () =>
  JSON.stringify({
    merchant_order_id: `${job.prefix}-${++n}`,
    amount: 1000,
    customer_msisdn: job.msisdn ?? '+2250707000001',
  });
const now = () => performance.timeOrigin + performance.now();

function countAnswer(status: number, body: string): void {
  let data: { status?: string } | undefined;
  try {
    data = (JSON.parse(body) as { data?: { status?: string } }).data;
  } catch {
    data = undefined;
  }
  const answer = `${status} ${data?.status ?? ''}`.trim();
  answers[answer] = (answers[answer] ?? 0) + 1;
  // The simulator confirms at once: a few cash-ins are SUCCESS by the time the gateway reads them back.
  if (answer === '202 PENDING' || answer === '202 SUCCESS') accepted++;
}

const request: autocannon.Request = (() => {
  switch (job.kind) {
    case 'ceiling-insert':
      return {
        method: 'POST',
        path: '/rows',
        setupRequest: (r) => ({ ...r, body: cashinBody(), headers: { 'content-type': 'application/json' } }),
      };
    case 'ceiling-select':
      return { method: 'GET', setupRequest: (r) => ({ ...r, path: `/rows/${job.ids![n++ % job.ids!.length]}` }) };
    case 'cashin':
      return {
        method: 'POST',
        path: '/api/v1/payments/cashin',
        setupRequest: (r) => {
          const body = cashinBody();
          return { ...r, body, headers: signed(body) };
        },
        onResponse: countAnswer,
      };
    case 'status':
      return {
        method: 'GET',
        setupRequest: (r) => ({
          ...r,
          path: `/api/v1/payments/${job.ids![n++ % job.ids!.length]}`,
          headers: signed(''),
        }),
      };
    case 'flow':
      return { method: 'POST' }; // flowLoad() builds its own
  }
})();

if (job.kind === 'flow') {
  await flowLoad();
} else if (job.rate) {
  if (job.kind !== 'cashin') throw new Error('a fixed rate is for cash-ins');
  const r = await pacedLoad({
    url: job.url,
    rate: job.rate,
    durationS: job.durationS,
    maxSockets: job.connections,
    onResponse: countAnswer,
    next: () => {
      const body = cashinBody();
      return { method: 'POST', path: '/api/v1/payments/cashin', headers: signed(body), body };
    },
  });
  finish({ ...r, rps: r.requests / job.durationS, timeouts: 0 });
} else {
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.durationS,
    requests: [request],
  });
  finish({
    requests: result.requests.total,
    rps: result.requests.total / (result.duration || job.durationS),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  });
}

function finish(r: Omit<LoadResult, 'accepted' | 'answers' | 'sent' | 'flow'>, flow: FlowResult | null = null): void {
  const out: LoadResult = {
    ...r,
    accepted: job.kind === 'cashin' || job.kind === 'flow' ? accepted : null,
    answers,
    sent: n,
    flow,
  };
  console.log(JSON.stringify(out));
}

/** Completed cash-ins: the load, then the wait for its webhooks at this process's receiver. */
async function flowLoad(): Promise<void> {
  /** merchant_order_id → arrival of its first SUCCESS webhook (now()). */
  const arrivals = new Map<string, number>();
  let duplicates = 0;
  let badSignatures = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = now();
      const raw = Buffer.concat(chunks);
      const ts = req.headers['x-service-timestamp'];
      const sig = req.headers['x-service-signature'];
      if (typeof ts !== 'string' || typeof sig !== 'string' || !signatureMatches(job.apiSecret!, ts, raw, sig)) {
        badSignatures++;
        res.writeHead(401).end();
        return;
      }
      const body = JSON.parse(raw.toString()) as { merchant_order_id?: string; status?: string };
      const id = body.merchant_order_id;
      if (body.status === 'SUCCESS' && id?.startsWith(`${job.prefix}-`)) {
        if (arrivals.has(id)) duplicates++;
        else arrivals.set(id, at);
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  const notifyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhooks`;

  /** Every merchant_order_id sent, and those answered 202. */
  const sent: string[] = [];
  const acceptedIds: string[] = [];
  const body = () => {
    const merchantOrderId = `${job.prefix}-${++n}`;
    sent.push(merchantOrderId);
    return JSON.stringify({
      merchant_order_id: merchantOrderId,
      amount: 1000,
      customer_msisdn: job.msisdn ?? '+2250707000001',
      notify_url: notifyUrl,
    });
  };
  const urls = job.urls ?? [job.url];
  const startedAt = now();
  const result = await autocannon({
    // autocannon spreads its connections over several URLs in turn (its typings only know one).
    url: (urls.length === 1 ? urls[0]! : urls) as string,
    connections: job.connections,
    duration: job.durationS,
    requests: [
      {
        method: 'POST',
        path: job.path ?? '/api/v1/payments/cashin',
        setupRequest: (r) => {
          const b = body();
          return { ...r, body: b, headers: signed(b) };
        },
        onResponse: (status, text) => {
          countAnswer(status, text);
          if (status !== 202) return;
          const id = (JSON.parse(text) as { data?: { merchant_order_id?: string } }).data?.merchant_order_id;
          if (id) acceptedIds.push(id);
        },
      },
    ],
  });
  const loadEndedAt = now();

  // Until every cash-in answered 202 is notified (then a few seconds more for those the end of the load
  // cut off, which the bench's settle check looks for too), or the deadline.
  const deadline = loadEndedAt + (job.webhookDeadlineS ?? 60) * 1000;
  let allAcceptedAt: number | null = null;
  while (now() < deadline) {
    if (allAcceptedAt === null && acceptedIds.every((id) => arrivals.has(id))) allAcceptedAt = now();
    if (allAcceptedAt !== null && (sent.every((id) => arrivals.has(id)) || now() - allAcceptedAt > 5000)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise<void>((resolve) => {
    receiver.close(() => resolve());
    receiver.closeAllConnections();
  });

  const completed = completedCashins(acceptedIds, arrivals, startedAt);
  finish(
    {
      requests: result.requests.total,
      rps: result.requests.total / (result.duration || job.durationS),
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    },
    {
      ...completed,
      drainS: Math.max(0, (startedAt + completed.seconds * 1000 - loadEndedAt) / 1000),
      notified: arrivals.size,
      duplicates,
      badSignatures,
      ...(job.reportArrivals
        ? { arrivals: Object.fromEntries([...arrivals].map(([id, at]) => [id, Math.round(at)])) }
        : {}),
    },
  );
}
