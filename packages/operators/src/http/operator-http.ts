import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { OperatorRefusedError, OperatorUnavailableError } from '../operator-adapter.js';

/**
 * The wire side of the error contract every adapter follows (README): one axios instance per account,
 * statuses mapped by the adapter, only transport failures thrown here.
 */
export function operatorHttp(baseUrl: string, timeoutMs: number, headers: Record<string, string> = {}): AxiosInstance {
  // validateStatus accepts every status: axios then throws only for a transport failure.
  return axios.create({ baseURL: baseUrl, timeout: timeoutMs, headers, validateStatus: () => true, maxRedirects: 0 });
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
      throw new OperatorUnavailableError(`operator ${what} call failed: ${err.code ?? ''} ${err.message}`.trim(), { cause: err });
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
