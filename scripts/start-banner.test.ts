import { DEMO_PORTAL_OWNER } from '@mm/config';
import { totpCode } from '@mm/merchant-portal';
import { demoOwnerTotpUri, merchantDashboardLines, TOTP_ISSUER } from './start-banner.js';

describe("pnpm start's merchant dashboard lines", () => {
  it('name the sign-in page, the demo owner and its development TOTP secret, typed and as an otpauth URI', () => {
    const text = merchantDashboardLines('http://127.0.0.1:3008');
    expect(text).toMatch(/^Merchant dashboard {2}http:\/\/127\.0\.0\.1:3008\/login /);
    for (const shown of [
      DEMO_PORTAL_OWNER.email,
      DEMO_PORTAL_OWNER.password,
      `TOTP secret  ${DEMO_PORTAL_OWNER.totpSecret}  (a DEVELOPMENT secret`,
      `otpauth URI  ${demoOwnerTotpUri()}`,
      DEMO_PORTAL_OWNER.recoveryCodes.join(' '),
    ])
      expect(text).toContain(shown);
  });

  it('the URI is what an authenticator app reads: the secret, six digits every 30 s by SHA-1, as the portal checks', () => {
    const uri = new URL(demoOwnerTotpUri());
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/${TOTP_ISSUER}:${DEMO_PORTAL_OWNER.email}`);
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: TOTP_ISSUER,
      secret: DEMO_PORTAL_OWNER.totpSecret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(totpCode(uri.searchParams.get('secret')!, 0)).toMatch(/^\d{6}$/);
  });
});
