import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { header, mtnError, type Answer } from './answer.js';
import type { MtnApiUserSeed, MtnMockProduct, ResolvedMtnOptions } from './options.js';

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

// Azure API Management fronts MTN's API: these are its bodies (integrators' issue threads), not `{code, message}`.
const BAD_SUBSCRIPTION_KEY: Answer = {
  status: 401,
  body: {
    statusCode: 401,
    message:
      'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
  },
};
const BAD_TOKEN: Answer = {
  status: 401,
  body: { statusCode: 401, message: 'Unauthorized. Access token is missing or invalid.' },
};

interface ApiUser extends MtnApiUserSeed {
  apiKey: string;
}
interface IssuedToken {
  product: MtnMockProduct;
  user: ApiUser;
  expiresAt: number;
}

/**
 * Subscription keys, API users (seeded, or created by the sandbox provisioning API) and their Bearer tokens.
 * Keys and tokens are compared, never logged or echoed.
 */
export class MtnAuth {
  private readonly users = new Map<string, ApiUser>();
  private readonly tokens = new Map<string, IssuedToken>();
  /** Token requests per product, for tests of "one refresh shared by concurrent calls". */
  readonly tokenRequests: Record<MtnMockProduct, number> = { collection: 0, disbursement: 0 };

  constructor(
    private readonly o: ResolvedMtnOptions,
    private readonly now: () => number = Date.now,
  ) {
    for (const seed of o.apiUsers) this.users.set(seed.userId, { ...seed });
  }

  /** The product a subscription key belongs to, or null. */
  productOfKey(req: Request): MtnMockProduct | null {
    const key = header(req, 'ocp-apim-subscription-key');
    const found = (Object.keys(this.o.subscriptionKeys) as MtnMockProduct[]).find(
      (p) => this.o.subscriptionKeys[p] === key,
    );
    return found ?? null;
  }

  /** POST /v1_0/apiuser (sandbox provisioning, M2). */
  createUser(req: Request): Answer {
    const product = this.productOfKey(req);
    if (!product) return BAD_SUBSCRIPTION_KEY;
    const userId = header(req, 'x-reference-id') ?? '';
    const host = (req.body as { providerCallbackHost?: unknown } | undefined)?.providerCallbackHost;
    if (!UUID_V4.test(userId) || typeof host !== 'string' || host === '')
      return mtnError(400, 'INVALID_REQUEST', 'X-Reference-Id must be a UUID v4 and providerCallbackHost a host name');
    if (this.users.has(userId))
      return mtnError(409, 'RESOURCE_ALREADY_EXIST', 'Duplicated reference id. Creation of resource failed.');
    this.users.set(userId, { userId, apiKey: '', product, providerCallbackHost: host });
    return { status: 201 };
  }

  /** POST /v1_0/apiuser/{id}/apikey: a new key replaces the old one. */
  createKey(req: Request, userId: string): Answer {
    if (!this.productOfKey(req)) return BAD_SUBSCRIPTION_KEY;
    const user = this.users.get(userId);
    if (!user) return mtnError(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
    user.apiKey = randomBytes(16).toString('hex');
    return { status: 201, body: { apiKey: user.apiKey } };
  }

  /** GET /v1_0/apiuser/{id} */
  describeUser(req: Request, userId: string): Answer {
    if (!this.productOfKey(req)) return BAD_SUBSCRIPTION_KEY;
    const user = this.users.get(userId);
    if (!user) return mtnError(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
    return {
      status: 200,
      body: { providerCallbackHost: user.providerCallbackHost, targetEnvironment: this.o.targetEnvironment },
    };
  }

  /** POST /{product}/token/: Basic apiUser:apiKey, no body, and a Content-Length (411 without, M4/M5). */
  issueToken(req: Request, product: MtnMockProduct): Answer {
    if (this.productOfKey(req) !== product) return BAD_SUBSCRIPTION_KEY;
    if (header(req, 'content-length') === undefined)
      return { status: 411, body: { code: 'LENGTH_REQUIRED', message: 'Content-Length required' } };
    if (header(req, 'content-length') !== '0')
      return mtnError(400, 'INVALID_REQUEST', 'The token request takes no body');
    this.tokenRequests[product] += 1;
    const basic = /^Basic (.+)$/.exec(header(req, 'authorization') ?? '')?.[1] ?? '';
    const [userId, apiKey] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    const user = userId ? this.users.get(userId) : undefined;
    // Documented as 401 {error} (M4); integrators also saw 500 {"error":"login_failed"} for the same cause.
    if (!user || user.product !== product || !user.apiKey || user.apiKey !== apiKey)
      return { status: 401, body: { error: 'login_failed' } };
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { product, user, expiresAt: this.now() + this.o.tokenLifetimeS * 1000 });
    return {
      status: 200,
      body: { access_token: token, token_type: 'access_token', expires_in: this.o.tokenLifetimeS },
    };
  }

  /** The API user behind a call of `product`, or the 401 MTN answers. */
  authenticate(req: Request, product: MtnMockProduct): { user: MtnApiUserSeed } | Answer {
    if (this.productOfKey(req) !== product) return BAD_SUBSCRIPTION_KEY;
    const bearer = /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
    const issued = bearer === undefined ? undefined : this.tokens.get(bearer);
    if (!issued || issued.product !== product || issued.expiresAt <= this.now()) return BAD_TOKEN;
    return { user: issued.user };
  }

  /** Every token issued so far is expired: the next call with one gets MTN's 401 (a token lapsing mid-flight). */
  expireTokens(): void {
    for (const issued of this.tokens.values()) issued.expiresAt = 0;
  }
}
