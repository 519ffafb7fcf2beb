import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import Joi from 'joi';
import { OperatorRefusedError, OperatorUnavailableError } from '../operator-adapter.js';
import type { IssuedToken } from '../auth/access-token-cache.js';

/**
 * What both Orange adapters share on the wire: the axios instance every call goes through, the error
 * contract (README), and the client-credentials token call (WebPay's /oauth/v3/token, mp's /token).
 */

export function orangeHttp(baseUrl: string, timeoutMs: number): AxiosInstance {
  // Statuses are mapped by the adapters; axios throws only for transport failures.
  return axios.create({ baseURL: baseUrl, timeout: timeoutMs, validateStatus: () => true, maxRedirects: 0 });
}

/** Statuses that say "try again later" rather than "your request is wrong". */
export function isTransient(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** Bounded rendering of an operator body for error messages (never our request: it holds the PIN or keys). */
export function bodyText(data: unknown): string {
  return (typeof data === 'string' ? data : JSON.stringify(data ?? null)).slice(0, 300);
}

/** 401/403 after the one token retry: our credentials (fixable), not the payment; otherwise a refusal. */
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

// Orange shows expires_in as a string ("7776000") on WebPay, a number elsewhere: both are read.
const tokenSchema = Joi.object({
  access_token: Joi.string().min(1).required(),
  expires_in: Joi.alternatives(Joi.number().min(0), Joi.string().pattern(/^\d+$/)).required(),
}).unknown(true);

export function tokenFromResponse(status: number, data: unknown): IssuedToken | null {
  if (status !== 200) return null;
  const { value, error } = tokenSchema.validate(data, { convert: false });
  if (error) return null;
  const body = value as { access_token: string; expires_in: number | string };
  return { token: body.access_token, expiresInS: Number(body.expires_in) };
}

/** POST <path>, Basic client_id:client_secret, form grant_type=client_credentials. */
export async function issueClientCredentialsToken(http: AxiosInstance, path: string, clientId: string, clientSecret: string): Promise<IssuedToken> {
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
  const res = await send('token', () => http.post(path, 'grant_type=client_credentials', {
    headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
  }));
  if (isTransient(res.status)) throw new OperatorUnavailableError(`operator answered ${res.status} to the token request`);
  const token = tokenFromResponse(res.status, res.data);
  if (token) return token;
  // A refused token request is our credentials: no payment can be decided on it.
  throw new Error(`operator refused the token request: ${res.status} ${bodyText(res.data)}`);
}
