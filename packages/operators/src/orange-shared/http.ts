import type { AxiosInstance } from 'axios';
import Joi from 'joi';
import { OperatorUnavailableError } from '../operator-adapter.js';
import { bodyText, isTransient, send } from '../http/operator-http.js';
import type { IssuedToken } from '../auth/access-token-cache.js';

/**
 * What both Orange adapters share on the wire: the client-credentials token call (WebPay's /oauth/v3/token,
 * mp's /token); the error contract is every adapter's (http/operator-http.ts).
 */

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
export async function issueClientCredentialsToken(
  http: AxiosInstance,
  path: string,
  clientId: string,
  clientSecret: string,
): Promise<IssuedToken> {
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
  const res = await send('token', () =>
    http.post(path, 'grant_type=client_credentials', {
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    }),
  );
  if (isTransient(res.status))
    throw new OperatorUnavailableError(`operator answered ${res.status} to the token request`);
  const token = tokenFromResponse(res.status, res.data);
  if (token) return token;
  // A refused token request is our credentials: no payment can be decided on it.
  throw new Error(`operator refused the token request: ${res.status} ${bodyText(res.data)}`);
}
