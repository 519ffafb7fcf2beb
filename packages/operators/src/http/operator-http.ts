import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { OperatorRefusedError, OperatorUnavailableError } from '../operator-adapter.js';

/**
 * Connections to one operator host (and port) open at once, per process. Above what a process asks of
 * an operator at once with the default concurrencies (the bridge: 20 jobs on each of its 4 queues), so
 * no call waits for a connection in normal running; a call beyond it waits for one to be free.
 */
export const OPERATOR_MAX_SOCKETS = 100;
/** An idle connection is closed after this: below the keep-alive timeout of common servers (Node 5 s), so we close first. */
export const OPERATOR_IDLE_TIMEOUT_MS = 4_000;

const keepAlive = {
  keepAlive: true,
  maxSockets: OPERATOR_MAX_SOCKETS,
  timeout: OPERATOR_IDLE_TIMEOUT_MS,
  scheduling: 'lifo' as const,
};
/**
 * One keep-alive pool per operator host, shared by every account of the process: pushes, status queries,
 * refunds and token calls reuse connections instead of a TCP (and TLS) handshake each. Set here rather
 * than left to Node's global agent, whose keep-alive, pool size and timeout are Node's defaults of the day.
 */
export const operatorAgents = { httpAgent: new HttpAgent(keepAlive), httpsAgent: new HttpsAgent(keepAlive) };

/**
 * The wire side of the error contract every adapter follows (README): one axios instance per account,
 * statuses mapped by the adapter, only transport failures thrown here.
 */
export function operatorHttp(baseUrl: string, timeoutMs: number, headers: Record<string, string> = {}): AxiosInstance {
  // validateStatus accepts every status: axios then throws only for a transport failure.
  return axios.create({
    baseURL: baseUrl,
    timeout: timeoutMs,
    headers,
    validateStatus: () => true,
    maxRedirects: 0,
    ...operatorAgents,
  });
}

/** Statuses that say "try again later" rather than "your request is wrong". */
export function isTransient(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** Bounded rendering of an operator's body for error messages (never our request: it may hold a PIN or keys). */
export function bodyText(data: unknown): string {
  return (typeof data === 'string' ? data : JSON.stringify(data ?? null)).slice(0, 300);
}

/**
 * A 4xx about the request itself: the operator did nothing with it (OperatorRefusedError). 401 and 403
 * are about our credentials, not the payment: failing a refund for a key we can fix would be wrong, so
 * they stay unknown outcomes (retried, then parked for a person to see).
 */
export function refusal(operation: OperatorRefusedError['operation'], res: AxiosResponse): Error {
  if (res.status === 401 || res.status === 403) {
    return new Error(`operator refused our credentials for the ${operation}: ${res.status} ${bodyText(res.data)}`);
  }
  return new OperatorRefusedError(operation, res.status, bodyText(res.data));
}

/** Anything but a transport failure comes back as a response; a transport failure is an unknown outcome. */
export async function send(what: string, request: () => Promise<AxiosResponse>): Promise<AxiosResponse> {
  try {
    return await request();
  } catch (err) {
    if (axios.isAxiosError(err)) {
      throw new OperatorUnavailableError(`operator ${what} call failed: ${err.code ?? ''} ${err.message}`.trim(), {
        cause: err,
      });
    }
    throw err;
  }
}

/** One header of an inbound callback, case-insensitively; undefined when absent or sent more than once. */
export function singleHeader(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined;
  return value;
}
