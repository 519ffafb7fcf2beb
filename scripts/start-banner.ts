/**
 * What `pnpm start` prints for the merchant portal: its sign-in page and the demo owner's sign-in, the
 * TOTP secret in both forms an authenticator app takes (typed, or the otpauth:// URI a QR code carries).
 * A code computed at start would be stale within 30 s: the secret is what a developer needs.
 */
import { DEMO_PORTAL_OWNER } from '@mm/config';
import { totpUri } from '@mm/merchant-portal';

/** The issuer an authenticator app shows next to the account. */
export const TOTP_ISSUER = 'Mobile money (demo)';

export function demoOwnerTotpUri(): string {
  return totpUri(DEMO_PORTAL_OWNER.totpSecret, DEMO_PORTAL_OWNER.email, TOTP_ISSUER);
}

export function merchantDashboardLines(portalUrl: string): string {
  return [
    `Merchant dashboard  ${portalUrl}/login  (the demo merchant's owner; README, "The merchant dashboard")`,
    `  email        ${DEMO_PORTAL_OWNER.email}`,
    `  password     ${DEMO_PORTAL_OWNER.password}`,
    `  TOTP secret  ${DEMO_PORTAL_OWNER.totpSecret}  (a DEVELOPMENT secret, published: never on a real account)`,
    `  otpauth URI  ${demoOwnerTotpUri()}`,
    `  recovery codes, each usable once instead of a code: ${DEMO_PORTAL_OWNER.recoveryCodes.join(' ')}`,
  ].join('\n');
}
