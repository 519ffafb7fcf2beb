import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';

export interface TokenIssuerOptions {
  clientId: string;
  clientSecret: string;
  lifetimeMs: number;
  /** expires_in as Orange writes it: WebPay shows a string ("7776000"), the mp gateway a number. */
  expiresInAsString: boolean;
  now?: () => number;
}

/**
 * OAuth client-credentials tokens as Orange's gateways issue them: Basic client_id:client_secret, form
 * grant_type=client_credentials, a bearer that really expires after its lifetime (or when a test says so).
 */
export class TokenIssuer {
  private readonly tokens = new Map<string, number>();
  private readonly now: () => number;
  issued = 0;

  constructor(private readonly o: TokenIssuerOptions) {
    this.now = o.now ?? Date.now;
  }

  /** The token endpoint. `bad` answers a refused client (each gateway words it its own way). */
  handler(bad: (status: 400 | 401) => { status: number; body: unknown }): RequestHandler {
    return (req, res) => {
      const expected = `Basic ${Buffer.from(`${this.o.clientId}:${this.o.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        const answer = bad(401);
        res.status(answer.status).json(answer.body);
        return;
      }
      const form = req.body as Record<string, unknown> | undefined;
      if (!form || form.grant_type !== 'client_credentials') {
        const answer = bad(400);
        res.status(answer.status).json(answer.body);
        return;
      }
      const token = randomBytes(18).toString('base64url');
      this.tokens.set(token, this.now() + this.o.lifetimeMs);
      this.issued += 1;
      const seconds = Math.floor(this.o.lifetimeMs / 1000);
      res.json({
        token_type: 'Bearer',
        access_token: token,
        expires_in: this.o.expiresInAsString ? String(seconds) : seconds,
        scope: 'am_application_scope default',
      });
    };
  }

  check(authorization: string | undefined): 'ok' | 'expired' | 'invalid' {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const expiresAt = token === undefined ? undefined : this.tokens.get(token);
    if (expiresAt === undefined) return 'invalid';
    return this.now() < expiresAt ? 'ok' : 'expired';
  }

  /** Every token issued so far stops working now (a token expired or revoked mid-flight). */
  expireAll(): void {
    for (const token of this.tokens.keys()) this.tokens.set(token, 0);
  }
}
