/**
 * A deployment is a sandbox or live (DEPLOYMENT_MODE), never both. A sandbox moves no real money: every
 * payment reaches the operator simulator or a contract mock, so no account of a real operator there may be
 * able to reach that operator's live system. A live deployment moves real money only: the simulator, which
 * confirms whatever its test numbers say, can take no payment there (its prefixes are real number ranges,
 * and a simulated success credits a balance that a cash-out pays out for real).
 */
export const DEPLOYMENT_MODES = ['sandbox', 'live'] as const;
export type DeploymentMode = (typeof DEPLOYMENT_MODES)[number];

/** An operator account as the mode's rules read it: its credentials opened (null: none, or not readable here). */
export interface ModeCheckedAccount {
  countryCode: string;
  operator: string;
  api: string;
  enabled: boolean;
  baseUrl: string | null;
  settings: Record<string, unknown>;
  credentials: Record<string, string> | null;
}

/**
 * What says an account is set up for the operator's live system, per API (null: nothing does). MTN: a
 * target environment other than `sandbox` (live markets are named `mtnivorycoast`, `mtncameroon`...);
 * Orange WebPay: a country path other than `dev` (without one, the payment's country code: the
 * production path); Orange "mp": always, Orange Cameroon has no sandbox; Wave: a production key
 * (`wave_<country>_prod_…`). A live key kept only in a credential this cannot open is not seen here.
 */
export function liveSetupOf(account: Pick<ModeCheckedAccount, 'api' | 'settings' | 'credentials'>): string | null {
  switch (account.api) {
    case 'mtn-momo': {
      const environment = account.settings.targetEnvironment ?? 'sandbox';
      return environment === 'sandbox' ? null : `MTN's live target environment "${String(environment)}"`;
    }
    case 'orange-webpay': {
      const path = account.settings.countryPath;
      return path === 'dev'
        ? null
        : `Orange WebPay's production path ${path === undefined ? "(the payment's country code)" : `"${String(path)}"`}`;
    }
    case 'orange-mp':
      return 'Orange Money "mp" (Orange Cameroon has no sandbox: every account of it is live)';
    case 'wave':
      return /^wave_[A-Za-z0-9]+_prod_/.test(account.credentials?.apiKey ?? '')
        ? 'a Wave production API key (wave_…_prod_…)'
        : null;
    default:
      return null;
  }
}

/**
 * Whether a base URL names a host inside the deployment, where only a contract mock can be: a loopback or
 * private address, `localhost`, a one-label service name (`operator-mocks`), or a name under `.local`,
 * `.internal` or a cluster's `.svc`. The operators' live systems are on public names; an account set up
 * for live that points here cannot reach them.
 */
export function isInsideDeployment(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  if (host.includes(':')) return host === '::1' || /^f[cd][0-9a-f]{2}:/.test(host);
  if (!host.includes('.')) return true;
  return /\.(local|internal|svc|svc\.cluster\.local)$/.test(host);
}

/**
 * Why the account may not be as it is in this mode; null when it may. Live: a simulator account enabled.
 * Sandbox: an account set up for its operator's live system (liveSetupOf) that points outside the
 * deployment, that is at the operator itself (one without a base URL points nowhere yet).
 */
export function deploymentModeViolation(mode: DeploymentMode, account: ModeCheckedAccount): string | null {
  const name = `${account.countryCode} ${account.operator}`;
  if (mode === 'live') {
    return account.api === 'simulator' && account.enabled
      ? `the simulator account ${name} is enabled: a live deployment sends no payment to the simulator (disable it: pnpm admin operator:set --country ${account.countryCode} --operator ${account.operator} --disable)`
      : null;
  }
  // Without a base URL an account of a real operator reaches nothing (it cannot be enabled, and no adapter is built for it).
  if (account.api === 'simulator' || account.baseUrl === null) return null;
  const live = liveSetupOf(account);
  if (!live || isInsideDeployment(account.baseUrl)) return null;
  return `the account ${name} is set up for its operator's live system (${live}) and points at ${account.baseUrl}: a sandbox moves no real money (point it at a contract mock, or use the operator's sandbox settings)`;
}
