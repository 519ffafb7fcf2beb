import { Agent, request } from 'node:http';
import { percentile } from './percentile.js';

export interface PacedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PacedOptions {
  url: string;
  /** Requests per second, sent at even intervals. */
  rate: number;
  durationS: number;
  /** Most requests in flight (sockets); a request beyond them waits, and the wait counts as latency. */
  maxSockets: number;
  next(): PacedRequest;
  onResponse(status: number, body: string): void;
}

export interface PacedResult {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
}

/**
 * An open-loop load at a fixed offered rate: request i is due at start + i/rate whatever happened to
 * the others, and its latency counts from when it was due, so a slow system cannot slow the load down
 * and hide its own queueing (coordinated omission). autocannon's own rate limit sends each second's
 * quota in one burst at the tick, which measures how fast a burst drains, not a steady rate.
 */
export async function pacedLoad(o: PacedOptions): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.maxSockets });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const send = (due: number, r: PacedRequest) =>
    new Promise<void>((resolve) => {
      const req = request(new URL(r.path, o.url), { method: r.method, headers: r.headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          latencies.push(performance.now() - due);
          if ((res.statusCode ?? 0) >= 300) non2xx++;
          o.onResponse(res.statusCode ?? 0, Buffer.concat(chunks).toString());
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(r.body);
    });

  const interval = 1000 / o.rate;
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; ; i++) {
    const due = start + i * interval;
    if (due >= start + o.durationS * 1000) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(send(due, o.next()));
  }
  await Promise.all(inFlight);
  agent.destroy();
  return {
    requests: latencies.length,
    non2xx,
    errors,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    max: Math.round(Math.max(...latencies)),
  };
}
