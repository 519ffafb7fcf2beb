import { parseArgs } from 'node:util';
import { createDb } from '@mm/db';
import { migrate } from '@mm/db/migrate';
import {
  createApiKey, resealUnboundSecrets, revokeApiKey, SecretBox, setSubsidiaryActive, upsertSubsidiary,
} from '@mm/db/reference-data';
import { verifyLedger } from '@mm/db/transactions';
import { currencyForCountry } from '@mm/domain';
import type { AdminEnv } from './env.js';
import { auditVerify, parseAnchor } from './commands/audit-verify.js';
import { merchantCreate } from './commands/merchant-create.js';
import { seed, seedSubsidiaries } from './commands/seed.js';
import { staffDisable } from './commands/staff-disable.js';
import { staffCreate } from './commands/staff-create.js';

export const USAGE = `usage: pnpm --silent admin <command> [options]
  migrate                                         apply pending SQL migrations, then bind every API secret to its row
  seed                                            subsidiaries CI, SN, CM, the demo merchant and demo staff (idempotent;
                                                  refused with NODE_ENV=production)
  seed:subsidiaries                               subsidiaries CI, SN, CM only: the production seed (idempotent)
  merchant:create --name N [--webhook-url U] [--json]
  key:create --merchant-id ID [--json]            a new key; the secret is shown once
  key:revoke --api-key K
  subsidiary:activate --country CC [--name N]     activates (creating it if needed)
  subsidiary:deactivate --country CC
  staff:create --email E --name N --role admin|approver|viewer [--password P] [--json]
                                                  a back-office account; without --password one is generated, shown once
  staff:disable --email E [--json]                a back-office account can no longer log in (e.g. a demo one)
  ledger:verify [--json]                          recompute balances from the journal; exit 1 on any difference
  audit:verify [--json] [--anchor ID:HASH]        recompute the audit log's hash chain; exit 1 naming the first broken row`;

/** A command that ran but found something wrong: printed, and the CLI exits 1. */
export class CommandFailure extends Error {
  constructor(readonly output: string) {
    super(output);
  }
}

/** Runs one admin command; returns what to print (the last line is JSON with --json). */
export async function runCommand(argv: string[], env: AdminEnv): Promise<string> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' }, 'webhook-url': { type: 'string' }, json: { type: 'boolean', default: false },
      'merchant-id': { type: 'string' }, 'api-key': { type: 'string' }, country: { type: 'string' },
      email: { type: 'string' }, role: { type: 'string' }, password: { type: 'string' }, anchor: { type: 'string' },
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
        const r = await migrate(env.DATABASE_URL);
        // The data step: secrets sealed before row bindings existed are bound now (the services refuse unbound ones).
        const resealed = await resealUnboundSecrets(db, box);
        return `applied ${r.applied.length} migration(s)${r.applied.length ? `: ${r.applied.join(', ')}` : ''}`
          + (resealed ? `\nre-sealed ${resealed} API secret(s), bound to their rows` : '');
      }
      case 'seed': {
        const r = await seed(db, box, env.DEMO_WEBHOOK_URL, env.NODE_ENV);
        const staff = r.staff.map((s) => `\n  ${s.role.padEnd(8)}  ${s.email}`).join('');
        return out(r, `demo merchant ${r.merchant_id}\n  api_key    ${r.api_key}\n  api_secret ${r.api_secret}\ndemo staff (password ${r.staff_password})${staff}`);
      }
      case 'seed:subsidiaries': {
        const created = await seedSubsidiaries(db);
        return out({ created }, created.length ? `subsidiaries created: ${created.join(', ')}` : 'subsidiaries already there');
      }
      case 'merchant:create': {
        const webhook = values['webhook-url'] ?? null;
        if (webhook !== null && !/^https?:\/\//.test(webhook)) throw new Error('--webhook-url must be an http(s) URL');
        const r = await merchantCreate(db, box, { name: need('name'), webhookUrl: webhook });
        return out(r, `merchant ${r.merchant_id}\n  api_key    ${r.api_key}\n  api_secret ${r.api_secret}  (shown once)`);
      }
      case 'key:create': {
        const k = await createApiKey(db, box, need('merchant-id'));
        return out({ merchant_id: k.merchantId, api_key: k.apiKey, api_secret: k.apiSecret }, `api_key ${k.apiKey}\napi_secret ${k.apiSecret}  (shown once)`);
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
        await upsertSubsidiary(db, { countryCode: country, countryName: values.name ?? existing?.countryName ?? country, currency, active: true });
        return out({ country_code: country, active: true }, `${country} active`);
      }
      case 'subsidiary:deactivate': {
        if (!(await setSubsidiaryActive(db, need('country').toUpperCase(), false))) throw new Error('unknown subsidiary');
        return out({ active: false }, 'deactivated');
      }
      case 'staff:create': {
        const r = await staffCreate(db, { email: need('email'), name: need('name'), role: need('role'), password: values.password });
        const shown = r.password ? `\n  password ${r.password}  (shown once)` : '';
        return out({ ...r }, `staff ${r.staff_id} ${r.email} (${r.role})${shown}`);
      }
      case 'staff:disable': {
        const r = await staffDisable(db, need('email'));
        return out(r, `staff ${r.email} disabled${r.changed ? '' : ' (it already was)'}`);
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
      default:
        throw new Error(`unknown command "${command ?? ''}"\n${USAGE}`);
    }
  } finally {
    await db.$disconnect();
  }
}
