/**
 * docker-compose.yml's production stack (no profile), run by Docker Compose on podman: it refuses to
 * start without its secrets, refuses the published development secrets and a database holding demo
 * data, starts healthy with generated secrets, and the admin CLI's documented commands create a
 * merchant (whose key then signs API calls) and a back-office account (which then logs in).
 */
import { DEV_MASTER_KEY, SIMULATOR_API_TOKEN, SIMULATOR_CALLBACK_SECRET } from '@mm/config';
import { waitFor } from '@mm/testing';
import { ComposeProject, DEMO_VARIABLES, generatedSecrets, waitHealthy } from './lib/compose.js';
import { recordFigures } from './lib/figures.js';
import { api, backofficeLogin } from './lib/merchant-flow.js';
import { podman } from './lib/podman.js';
import { startPodmanApi, type PodmanApi } from './lib/podman-api.js';

const lastJsonLine = (out: string) => JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, string>;

describe('docker compose up: the production stack', () => {
  let podmanApi: PodmanApi;
  let production: ComposeProject;
  const containers = async () =>
    (await podman(['ps', '-a', '-q', '--filter', `label=com.docker.compose.project=${production.name}`])).trim();

  beforeAll(async () => {
    podmanApi = await startPodmanApi();
    production = new ComposeProject(podmanApi, 'mmprod', [], {});
    await production.down();
  });
  afterAll(async () => {
    await production?.down().catch(() => undefined);
    await podmanApi?.close();
  });

  it('refuses to start without its secrets, and creates nothing', async () => {
    production.variables = {};
    await expect(production.up()).rejects.toThrow(
      /set MASTER_KEY|set OPERATOR_API_TOKEN|set OPERATOR_CALLBACK_SECRET|set SESSION_SECRET/,
    );
    expect(await containers()).toBe('');
  });

  it("refuses the published development secrets: the published MASTER_KEY stops `migrate`, so no service is created; the simulator's token and callback secret stop the services that call the operator", async () => {
    production.variables = { ...generatedSecrets(), MASTER_KEY: DEV_MASTER_KEY };
    try {
      await expect(production.up()).rejects.toThrow(/exited with code 1/);
      expect(await production.compose(['logs', '--no-color', 'migrate'])).toMatch(
        /MASTER_KEY holds a published development value/,
      );
      expect((await production.state('migrate')).exitCode).toBe(1);
      await expect(production.containerId('gateway')).rejects.toThrow(/no container for gateway/);
    } finally {
      await production.down();
    }
    production.variables = {
      ...generatedSecrets(),
      OPERATOR_API_TOKEN: SIMULATOR_API_TOKEN,
      OPERATOR_CALLBACK_SECRET: SIMULATOR_CALLBACK_SECRET,
    };
    try {
      await production.up();
      for (const service of ['operator-bridge', 'expiry-worker', 'refund-worker']) {
        await waitFor(
          async () =>
            /OPERATOR_API_TOKEN, OPERATOR_CALLBACK_SECRET hold a published development value/.test(
              await production.compose(['logs', '--no-color', service]),
            ),
          {
            what: `${service} to name the published secrets`,
            timeoutMs: 120_000,
            intervalMs: 1000,
          },
        );
        expect({ service, health: (await production.state(service)).health }).not.toEqual({
          service,
          health: 'healthy',
        });
      }
    } finally {
      await production.down();
    }
  });

  it('refuses a database holding demo data (the demo seed run on its volume)', async () => {
    const secrets = generatedSecrets();
    const seeding = new ComposeProject(podmanApi, production.name, [], { ...DEMO_VARIABLES, ...secrets }, ['demo']);
    try {
      await seeding.compose(['run', '--rm', 'demo-seed']);
      production.variables = secrets;
      await production.up();
      await waitFor(
        async () =>
          /this database holds demo data with published credentials/.test(
            await production.compose(['logs', '--no-color', 'gateway']),
          ),
        {
          what: 'the gateway to refuse the demo data',
          timeoutMs: 120_000,
          intervalMs: 1000,
        },
      );
      expect((await production.state('gateway')).health).not.toBe('healthy');
    } finally {
      await production.down();
    }
  });

  it('starts healthy with generated secrets; the admin CLI creates a merchant whose key signs API calls, and a staff account that logs in', async () => {
    production.variables = generatedSecrets();
    const started = Date.now();
    await production.up();
    await waitHealthy(production);
    recordFigures('compose-production', { secondsToHealthy: (Date.now() - started) / 1000 });

    const merchant = lastJsonLine(
      await production.compose([
        'run',
        '--rm',
        'migrate',
        'node',
        'dist/admin-cli.mjs',
        'merchant:create',
        '--name',
        'Shop',
        '--json',
      ]),
    );
    const balances = await api({ key: merchant.api_key!, secret: merchant.api_secret! })('GET', '/balances');
    expect(balances.status).toBe(200);
    const staff = lastJsonLine(
      await production.compose([
        'run',
        '--rm',
        'migrate',
        'node',
        'dist/admin-cli.mjs',
        'staff:create',
        '--email',
        'you@example.com',
        '--name',
        'You',
        '--role',
        'admin',
        '--json',
      ]),
    );
    expect((await backofficeLogin('you@example.com', staff.password!)).homeStatus).toBe(200);
  });
});
