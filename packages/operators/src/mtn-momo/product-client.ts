import type { AxiosInstance, AxiosResponse, Method } from 'axios';
import Joi from 'joi';
import { AccessTokenCache, withAccessToken, type IssuedToken } from '../auth/access-token-cache.js';
import { operatorHttp, send } from '../http/operator-http.js';
import { OperatorUnavailableError } from '../operator-adapter.js';

export type MtnProduct = 'collection' | 'disbursement';

/** One MTN product's credentials: each product has its own subscription key, API user and API key (M2). */
export interface MtnProductCredentials {
  subscriptionKey: string;
  apiUser: string;
  apiKey: string;
}

export interface MtnProductClientConfig extends MtnProductCredentials {
  product: MtnProduct;
  baseUrl: string;
  targetEnvironment: string;
  timeoutMs: number;
}

const tokenSchema = Joi.object({
  access_token: Joi.string().min(1).required(),
  expires_in: Joi.number().min(0).required(),
}).unknown(true);

/**
 * The calls of one product (Collection or Disbursement): its subscription key on every call, its own Bearer
 * token (Basic apiUser:apiKey on /<product>/token/, 3600 s), shared by every call of the account through the
 * AccessTokenCache, refreshed once on a 401. Returns MTN's answer as is; only transport failures throw.
 */
export class MtnProductClient {
  private readonly http: AxiosInstance;
  private readonly tokens: AccessTokenCache;

  constructor(private readonly c: MtnProductClientConfig) {
    this.http = operatorHttp(c.baseUrl, c.timeoutMs, { 'Ocp-Apim-Subscription-Key': c.subscriptionKey });
    this.tokens = new AccessTokenCache({ issue: () => this.issueToken() });
  }

  /** A call with the product's token; a 401 after one refresh is returned (our credentials are wrong). */
  call(
    what: string,
    method: Method,
    url: string,
    options: { data?: unknown; headers?: Record<string, string> } = {},
  ): Promise<AxiosResponse> {
    return withAccessToken(this.tokens, (token) =>
      this.send(what, () =>
        this.http.request({
          method,
          url,
          data: options.data,
          headers: {
            Authorization: `Bearer ${token}`,
            'X-Target-Environment': this.c.targetEnvironment,
            ...options.headers,
          },
        }),
      ),
    );
  }

  private async issueToken(): Promise<IssuedToken> {
    const basic = Buffer.from(`${this.c.apiUser}:${this.c.apiKey}`, 'utf8').toString('base64');
    // No body, and an explicit Content-Length: 0: MTN answers 411 without it (M4, M5).
    const res = await this.send('token', () =>
      this.http.post(`/${this.c.product}/token/`, undefined, {
        headers: { Authorization: `Basic ${basic}`, 'Content-Length': '0' },
      }),
    );
    if (res.status === 200) {
      const { value, error } = tokenSchema.validate(res.data, { convert: false });
      if (!error)
        return {
          token: (value as { access_token: string }).access_token,
          expiresInS: (value as { expires_in: number }).expires_in,
        };
      throw new OperatorUnavailableError(`unexpected ${this.c.product} token answer: ${JSON.stringify(res.data)}`);
    }
    // MTN answers a wrong API user or key with 401, or with 500 {"error":"login_failed"} (integrators' logs):
    // both are our credentials, to be fixed by a person, not an outage.
    const loginFailed = res.status === 500 && (res.data as { error?: unknown } | undefined)?.error === 'login_failed';
    if (res.status === 401 || res.status === 403 || loginFailed) {
      throw new Error(`MTN refused our ${this.c.product} API user: ${res.status} ${JSON.stringify(res.data)}`);
    }
    throw new OperatorUnavailableError(`MTN answered ${res.status} to the ${this.c.product} token request`);
  }

  private send(what: string, request: () => Promise<AxiosResponse>): Promise<AxiosResponse> {
    return send(`MTN ${this.c.product} ${what}`, request);
  }
}
