import {
  deploymentModeViolation,
  isInsideDeployment,
  liveSetupOf,
  type ModeCheckedAccount,
} from './deployment-mode.js';

const account = (o: Partial<ModeCheckedAccount>): ModeCheckedAccount => ({
  countryCode: 'CI',
  operator: 'MTN',
  api: 'mtn-momo',
  enabled: true,
  baseUrl: 'https://proxy.momoapi.mtn.com',
  settings: {},
  credentials: null,
  ...o,
});

describe("liveSetupOf: what says an account is set up for its operator's live system", () => {
  it.each([
    ['mtn-momo', { targetEnvironment: 'mtnivorycoast' }, null, true],
    ['mtn-momo', { targetEnvironment: 'sandbox' }, null, false],
    ['mtn-momo', {}, null, false],
    ['orange-webpay', { countryPath: 'ci' }, null, true],
    ['orange-webpay', {}, null, true],
    ['orange-webpay', { countryPath: 'dev' }, null, false],
    ['orange-mp', {}, null, true],
    ['wave', {}, { apiKey: 'wave_sn_prod_AbC123' }, true],
    ['wave', {}, { apiKey: 'wave_ci_sandbox_mockDemoKey0123456789' }, false],
    ['wave', {}, null, false],
    ['simulator', {}, null, false],
  ] as const)('%s %j %j: live %s', (api, settings, credentials, live) => {
    expect(liveSetupOf({ api, settings, credentials }) !== null).toBe(live);
  });
});

describe('isInsideDeployment', () => {
  it.each([
    'http://127.0.0.1:3011',
    'http://localhost:3011',
    'http://operator-mocks:3011',
    'http://10.1.2.3',
    'http://172.20.0.5:80',
    'http://192.168.1.4',
    'http://[::1]:3011',
    'http://operator-mocks.mobilemoney.svc.cluster.local:3011',
    'http://mocks.internal',
    'http://mocks.local',
  ])('%s: inside', (url) => expect(isInsideDeployment(url)).toBe(true));
  it.each([
    'https://proxy.momoapi.mtn.com',
    'https://api.orange.com',
    'https://api-s1.orange.cm',
    'https://api.wave.com',
    'http://8.8.8.8',
    'http://172.32.0.1',
    'not a url',
  ])('%s: outside', (url) => expect(isInsideDeployment(url)).toBe(false));
});

describe('deploymentModeViolation', () => {
  it('live: an enabled simulator account is refused, a disabled one is not; real operators are what live is for', () => {
    expect(
      deploymentModeViolation('live', account({ operator: 'SIMULATOR', api: 'simulator', baseUrl: null })),
    ).toMatch(/simulator account CI SIMULATOR is enabled/);
    expect(
      deploymentModeViolation('live', account({ operator: 'SIMULATOR', api: 'simulator', enabled: false })),
    ).toBeNull();
    expect(deploymentModeViolation('live', account({ settings: { targetEnvironment: 'mtnivorycoast' } }))).toBeNull();
  });

  it("sandbox: an account set up for live and pointing at the operator is refused, enabled or not; pointing at a mock inside, or in the operator's sandbox, it is not", () => {
    expect(deploymentModeViolation('sandbox', account({ settings: { targetEnvironment: 'mtnivorycoast' } }))).toMatch(
      /live target environment "mtnivorycoast"/,
    );
    expect(
      deploymentModeViolation(
        'sandbox',
        account({
          enabled: false,
          api: 'wave',
          operator: 'WAVE',
          baseUrl: 'https://api.wave.com',
          credentials: { apiKey: 'wave_ci_prod_x' },
        }),
      ),
    ).toMatch(/Wave production API key/);
    expect(
      deploymentModeViolation(
        'sandbox',
        account({ api: 'orange-mp', operator: 'ORANGE', baseUrl: 'https://api-s1.orange.cm' }),
      ),
    ).toMatch(/Orange Cameroon has no sandbox/);
    // Seeded, not configured yet: no base URL, it reaches nothing.
    expect(
      deploymentModeViolation(
        'sandbox',
        account({ api: 'orange-mp', operator: 'ORANGE', baseUrl: null, enabled: false }),
      ),
    ).toBeNull();
    expect(
      deploymentModeViolation(
        'sandbox',
        account({ settings: { targetEnvironment: 'mtnivorycoast' }, baseUrl: 'http://127.0.0.1:3011' }),
      ),
    ).toBeNull();
    expect(
      deploymentModeViolation(
        'sandbox',
        account({ settings: { targetEnvironment: 'sandbox' }, baseUrl: 'https://sandbox.momodeveloper.mtn.com' }),
      ),
    ).toBeNull();
    expect(
      deploymentModeViolation(
        'sandbox',
        account({ operator: 'SIMULATOR', api: 'simulator', baseUrl: 'https://sim.example.com' }),
      ),
    ).toBeNull();
  });
});
