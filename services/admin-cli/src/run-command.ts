import { parseArgs } from 'node:util';
import { directDatabaseUrl } from '@mm/config';
import { createDb, migrate, SecretBox } from '@mm/db';
import {
  createApiKey,
  resealUnboundSecrets,
  revokeApiKey,
  setSubsidiaryActive,
  upsertSubsidiary,
} from '@mm/db/merchants';
import { verifyLedger } from '@mm/db/ledger';
import { currencyForCountry } from '@mm/domain';
import type { AdminEnv } from './env.js';
import { auditVerify, parseAnchor } from './commands/audit-verify.js';
import { merchantCreate } from './commands/merchant-create.js';
import { merchantUserDisable } from './commands/merchant-user-disable.js';
import {
  disableSimulatorsForLive,
  operatorCredentials,
  operatorDown,
  operatorKey,
  operatorList,
  operatorSet,
  operatorUp,
} from './commands/operator.js';
import {
  parseCountry,
  parseDay,
  parseOperatorName,
  reconcile,
  reconcileImport,
  reconcileReport,
  type ReportFormat,
} from './commands/reconcile.js';
import { seed, seedSubsidiaries } from './commands/seed.js';
import { staffDisable } from './commands/staff-disable.js';
import { staffCreate } from './commands/staff-create.js';

export const USAGE = `usage: pnpm --silent admin <command> [options]
  migrate                                         apply pending SQL migrations, then bind every API secret to its row
  seed                                            subsidiaries CI, SN, CM, the demo merchant, its portal owner and the
                                                  demo staff (idempotent; refused with NODE_ENV=production)
  seed:subsidiaries                               subsidiaries CI, SN, CM only: the production seed (idempotent)
  merchant:create --name N [--webhook-url U] [--json]
  key:create --merchant-id ID [--json]            a new key; the secret is shown once
  key:revoke --api-key K
  subsidiary:activate --country CC [--name N]     activates (creating it if needed)
  subsidiary:deactivate --country CC
  staff:create --email E --name N --role admin|approver|viewer [--password P] [--json]
                                                  a back-office account; without --password one is generated, shown once
  staff:disable --email E [--json]                a back-office account can no longer log in (e.g. a demo one)
  merchant-user:disable --email E [--json]        a merchant portal user can no longer sign in (e.g. the demo owner)
  operator:list [--json]                          the operator accounts (never their credentials: only whether set)
  operator:set --country CC --operator OP [--api API] [--base-url URL] [--settings JSON] [--prefixes +P1,+P2]
               [--enable|--disable] [--json]      changes the fields given; creates the account with --api
  operator:credentials --country CC --operator OP [--json] < credentials.json
                                                  replaces its credentials with the JSON object on standard input
  operator:down --country CC --operator OP --reason R [--json]
                                                  new payments for it answer 503 until operator:up
  operator:up --country CC --operator OP [--json]
  ledger:verify [--json]                          recompute balances from the journal; exit 1 on any difference
  audit:verify [--json] [--anchor ID:HASH]        recompute the audit log's hash chain; exit 1 naming the first broken row
  reconcile --operator OP --date YYYY-MM-DD [--country CC] [--json]
                                                  reconcile the day of each enabled account of OP (or of CC) with what
                                                  the operator says; exit 1 when an account could not be reconciled
  reconcile:import --operator OP --country CC --file STATEMENT.csv [--json]
                                                  keep an operator's statement (refused whole on any bad line, nothing
                                                  written), then reconcile again each day it covers
  reconcile:report --date YYYY-MM-DD [--operator OP] [--country CC] [--format text|json|csv] [--json]
                                                  the day's report per account: counts and amounts per category, open cases`;

/** A command that ran but found something wrong: printed, and the CLI exits 1. */
export class CommandFailure extends Error {
  constructor(readonly output: string) {
    super(output);
  }
}

/** What a command may read besides its arguments. */
export interface CommandIo {
  /** All of standard input (main.ts reads process.stdin); only operator:credentials calls it. */
  readStdin?: () => Promise<string>;
}

/** Runs one admin command; returns what to print (the last line is JSON with --json). */
export async function runCommand(argv: string[], env: AdminEnv, io: CommandIo = {}): Promise<string> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'webhook-url': { type: 'string' },
      json: { type: 'boolean', default: false },
      'merchant-id': { type: 'string' },
      'api-key': { type: 'string' },
      country: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
      anchor: { type: 'string' },
      operator: { type: 'string' },
      api: { type: 'string' },
      'base-url': { type: 'string' },
      settings: { type: 'string' },
      prefixes: { type: 'string' },
      enable: { type: 'boolean' },
      disable: { type: 'boolean' },
      reason: { type: 'string' },
      date: { type: 'string' },
      file: { type: 'string' },
      format: { type: 'string' },
    },
    strict: true,
  });
  const need = (k: keyof typeof values) => {
    const v = values[k];
    if (typeof v !== 'string' || v === '') throw new Error(`--${k} is required\n${USAGE}`);
    return v;
  };
  const db = createDb({ databaseUrl: env.DATABASE_URL, poolSize: 2 });
  const box = new SecretBox(env.MASTER_KEY);
  const out = (obj: Record<string, unknown>, text: string) => (values.json ? JSON.stringify(obj) : text);
  try {
    switch (command) {
      case 'migrate': {
        // Its advisory lock is a session's: never through a transaction-mode pooler.
        const r = await migrate(directDatabaseUrl(env));
        // The data step: secrets sealed before row bindings existed are bound now (the services refuse unbound ones).
        const resealed = await resealUnboundSecrets(db, box);
        const disabled = env.DEPLOYMENT_MODE === 'live' ? await disableSimulatorsForLive(db, box) : [];
        return (
          `applied ${r.applied.length} migration(s)${r.applied.length ? `: ${r.applied.join(', ')}` : ''}` +
          (resealed ? `\nre-sealed ${resealed} API secret(s), bound to their rows` : '') +
          (disabled.length ? `\nDEPLOYMENT_MODE=live: disabled the simulator accounts ${disabled.join(', ')}` : '')
        );
      }
      case 'seed': {
        const r = await seed(db, box, env.DEMO_WEBHOOK_URL, env.NODE_ENV);
        const staff = r.staff.map((s) => `\n  ${s.role.padEnd(8)}  ${s.email}`).join('');
        return out(
          r,
          `demo merchant ${r.merchant_id}\n  api_key    ${r.api_key}\n  api_secret ${r.api_secret}\ndemo staff (password ${r.staff_password})${staff}` +
            `\ndemo portal owner ${r.portal_owner.email} (password ${r.portal_owner.password}, development TOTP secret ${r.portal_owner.totp_secret}, recovery codes ${r.portal_owner.recovery_codes.join(' ')})` +
            `\ndemo payment link /l/${r.payment_link.slug}`,
        );
      }
      case 'seed:subsidiaries': {
        const created = await seedSubsidiaries(db);
        return out(
          { created },
          created.length ? `subsidiaries created: ${created.join(', ')}` : 'subsidiaries already there',
        );
      }
      case 'merchant:create': {
        const webhook = values['webhook-url'] ?? null;
        if (webhook !== null && !/^https?:\/\//.test(webhook)) throw new Error('--webhook-url must be an http(s) URL');
        const r = await merchantCreate(db, box, { name: need('name'), webhookUrl: webhook });
        return out(
          r,
          `merchant ${r.merchant_id}\n  api_key    ${r.api_key}\n  api_secret ${r.api_secret}  (shown once)`,
        );
      }
      case 'key:create': {
        const k = await createApiKey(db, box, need('merchant-id'));
        return out(
          { merchant_id: k.merchantId, api_key: k.apiKey, api_secret: k.apiSecret },
          `api_key ${k.apiKey}\napi_secret ${k.apiSecret}  (shown once)`,
        );
      }
      case 'key:revoke': {
        if (!(await revokeApiKey(db, need('api-key')))) throw new Error('no active key with this api_key');
        return out({ revoked: true }, 'revoked');
      }
      case 'subsidiary:activate': {
        const country = need('country').toUpperCase();
        const currency = currencyForCountry(country);
        if (!currency) throw new Error(`${country} is not in the XOF or XAF zone`);
        const existing = await db.subsidiary.findUnique({ where: { countryCode: country } });
        await upsertSubsidiary(db, {
          countryCode: country,
          countryName: values.name ?? existing?.countryName ?? country,
          currency,
          active: true,
        });
        return out({ country_code: country, active: true }, `${country} active`);
      }
      case 'subsidiary:deactivate': {
        if (!(await setSubsidiaryActive(db, need('country').toUpperCase(), false)))
          throw new Error('unknown subsidiary');
        return out({ active: false }, 'deactivated');
      }
      case 'staff:create': {
        const r = await staffCreate(db, {
          email: need('email'),
          name: need('name'),
          role: need('role'),
          password: values.password,
        });
        const shown = r.password ? `\n  password ${r.password}  (shown once)` : '';
        return out({ ...r }, `staff ${r.staff_id} ${r.email} (${r.role})${shown}`);
      }
      case 'staff:disable': {
        const r = await staffDisable(db, need('email'));
        return out(r, `staff ${r.email} disabled${r.changed ? '' : ' (it already was)'}`);
      }
      case 'merchant-user:disable': {
        const r = await merchantUserDisable(db, need('email'));
        return out(r, `merchant portal user ${r.email} disabled${r.changed ? '' : ' (it already was)'}`);
      }
      case 'operator:list': {
        const r = await operatorList(db);
        return out({ accounts: r.accounts }, r.text);
      }
      case 'operator:set': {
        const key = operatorKey(need('country'), need('operator'));
        const r = await operatorSet(db, box, env.DEPLOYMENT_MODE, key, {
          api: values.api,
          baseUrl: values['base-url'],
          settings: values.settings,
          prefixes: values.prefixes,
          enable: values.enable,
          disable: values.disable,
        });
        const what = r.created ? 'created' : r.changed ? 'changed' : 'unchanged (it already was so)';
        return out(
          { country_code: key.countryCode, operator: key.operator, ...r },
          `operator account ${key.countryCode} ${key.operator} ${what}`,
        );
      }
      case 'operator:credentials': {
        const key = operatorKey(need('country'), need('operator'));
        // From standard input, never from an option: the command line of a running process is readable by
        // every user of the machine (ps, /proc/<pid>/cmdline) and lands in shell history.
        if (!io.readStdin)
          throw new Error('operator:credentials reads the credentials from standard input, and there is none');
        const r = await operatorCredentials(db, box, env.DEPLOYMENT_MODE, key, await io.readStdin());
        return out(
          { country_code: key.countryCode, operator: key.operator, credentials_set: true, names: r.names },
          `credentials set for ${key.countryCode} ${key.operator}: ${r.names.join(', ')} (sealed; never shown again)`,
        );
      }
      case 'operator:down': {
        const key = operatorKey(need('country'), need('operator'));
        const r = await operatorDown(db, box, env.DEPLOYMENT_MODE, key, need('reason'));
        return out(
          { country_code: key.countryCode, operator: key.operator, down: true, ...r },
          `${key.countryCode} ${key.operator} marked down${r.changed ? '' : ' (it already was, for this reason)'}`,
        );
      }
      case 'operator:up': {
        const key = operatorKey(need('country'), need('operator'));
        const r = await operatorUp(db, box, env.DEPLOYMENT_MODE, key);
        return out(
          { country_code: key.countryCode, operator: key.operator, down: false, ...r },
          `${key.countryCode} ${key.operator} marked up${r.changed ? '' : ' (it was not down)'}`,
        );
      }
      case 'ledger:verify': {
        const report = await verifyLedger(db);
        const lines = [
          `ledger ${report.ok ? 'OK' : 'DIFFERENCES FOUND'}: ${report.journals} journals, ${report.accounts} accounts, ${report.problems.length} problem(s)`,
          ...report.problems.map((p) => `- ${p.check}: ${JSON.stringify(p.detail)}`),
        ];
        const output = out(report as unknown as Record<string, unknown>, lines.join('\n'));
        if (!report.ok) throw new CommandFailure(output);
        return output;
      }
      case 'audit:verify': {
        const { report, text } = await auditVerify(db, parseAnchor(values.anchor));
        const output = out(report as unknown as Record<string, unknown>, text);
        if (!report.ok) throw new CommandFailure(output);
        return output;
      }
      case 'reconcile': {
        const r = await reconcile(db, env, {
          operator: parseOperatorName(need('operator')),
          date: parseDay(need('date')),
          country: values.country === undefined ? null : parseCountry(values.country),
        });
        const output = out(r.output as unknown as Record<string, unknown>, r.text);
        if (r.failed) throw new CommandFailure(output);
        return output;
      }
      case 'reconcile:import': {
        const r = await reconcileImport(db, env, {
          operator: parseOperatorName(need('operator')),
          country: parseCountry(need('country')),
          file: need('file'),
        });
        const output = out(r.output as unknown as Record<string, unknown>, r.text);
        if (r.failed) throw new CommandFailure(output);
        return output;
      }
      case 'reconcile:report': {
        const format = values.json ? 'json' : (values.format ?? 'text');
        if (!['text', 'json', 'csv'].includes(format))
          throw new Error(`--format must be text, json or csv, not "${format}"`);
        const r = await reconcileReport(db, {
          date: parseDay(need('date')),
          ...(values.operator !== undefined ? { operator: parseOperatorName(values.operator) } : {}),
          ...(values.country !== undefined ? { country: parseCountry(values.country) } : {}),
          format: format as ReportFormat,
        });
        return r.output;
      }
      default:
        throw new Error(`unknown command "${command ?? ''}"\n${USAGE}`);
    }
  } finally {
    await db.$disconnect();
  }
}
