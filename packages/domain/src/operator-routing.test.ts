import { isOperatorPrefix, routeOperator, type RoutableAccount } from './operator-routing.js';

const account = (operator: string, prefixes: string[], o: Partial<RoutableAccount> = {}): RoutableAccount => ({
  operator,
  prefixes,
  enabled: true,
  down: false,
  ...o,
});
// Côte d'Ivoire as seeded: the simulator's test numbers sit inside Orange's 07 by a longer prefix.
const ci = [
  account('SIMULATOR', ['+2250700', '+2250707']),
  account('MTN', ['+22505']),
  account('ORANGE', ['+22507']),
  account('WAVE', []),
];

describe('routeOperator', () => {
  it('takes the longest matching prefix: a test number goes to the simulator, another 07 number to Orange', () => {
    expect(routeOperator(ci, '+2250707000001')).toEqual({ kind: 'routed', operator: 'SIMULATOR' });
    expect(routeOperator(ci, '+2250712345678')).toEqual({ kind: 'routed', operator: 'ORANGE' });
    expect(routeOperator(ci, '+2250512345678')).toEqual({ kind: 'routed', operator: 'MTN' });
  });

  it('answers unsupported when no account serves the number (Moov has no adapter)', () => {
    expect(routeOperator(ci, '+2250112345678')).toEqual({ kind: 'unsupported' });
  });

  it('skips a disabled account for a longer prefix: the enabled one with a shorter prefix takes the number', () => {
    const accounts = [account('SIMULATOR', ['+2250707'], { enabled: false }), account('ORANGE', ['+22507'])];
    expect(routeOperator(accounts, '+2250707000001')).toEqual({ kind: 'routed', operator: 'ORANGE' });
  });

  it('answers unavailable when only a disabled account serves the number', () => {
    const accounts = [account('MTN', ['+22505'], { enabled: false }), account('ORANGE', ['+22507'])];
    expect(routeOperator(accounts, '+2250512345678')).toEqual({
      kind: 'unavailable',
      operator: 'MTN',
      reason: 'disabled',
    });
  });

  it('answers unavailable when the chosen account is marked down', () => {
    const accounts = [account('MTN', ['+22505'], { down: true })];
    expect(routeOperator(accounts, '+2250512345678')).toEqual({ kind: 'unavailable', operator: 'MTN', reason: 'down' });
  });

  it('a named operator is taken whatever the number; Wave is reachable only by name', () => {
    expect(routeOperator(ci, '+2250712345678', 'WAVE')).toEqual({ kind: 'routed', operator: 'WAVE' });
    expect(routeOperator(ci, '+2250712345678', 'MTN')).toEqual({ kind: 'routed', operator: 'MTN' });
  });

  it('a named operator without an account here is unsupported; disabled or down is unavailable', () => {
    expect(routeOperator(ci, '+2250712345678', 'MOOV')).toEqual({ kind: 'unsupported' });
    expect(routeOperator([account('WAVE', [], { enabled: false })], '+2250712345678', 'WAVE')).toEqual({
      kind: 'unavailable',
      operator: 'WAVE',
      reason: 'disabled',
    });
    expect(routeOperator([account('WAVE', [], { down: true })], '+2250712345678', 'WAVE')).toEqual({
      kind: 'unavailable',
      operator: 'WAVE',
      reason: 'down',
    });
  });
});

it('a subsidiary without any account sends every number to the simulator of the settings, as before accounts existed', () => {
  expect(routeOperator([], '+22890000006')).toEqual({ kind: 'routed', operator: 'SIMULATOR' });
  expect(routeOperator([], '+22890000006', 'SIMULATOR')).toEqual({ kind: 'routed', operator: 'SIMULATOR' });
  expect(routeOperator([], '+22890000006', 'MTN')).toEqual({ kind: 'unsupported' });
});

describe('routeOperator by deployment mode', () => {
  // As the seed has them: the simulator's account is of the simulator API.
  const seeded = [
    account('SIMULATOR', ['+2250700', '+2250707'], { simulated: true }),
    account('MTN', ['+22505']),
    account('ORANGE', ['+22507']),
  ];

  it('live: a simulator account does not exist, even named, even enabled; its test numbers go to the real operator of their range', () => {
    expect(routeOperator(seeded, '+2250707000001', null, 'live')).toEqual({ kind: 'routed', operator: 'ORANGE' });
    expect(routeOperator(seeded, '+2250707000001', 'SIMULATOR', 'live')).toEqual({ kind: 'unsupported' });
    expect(routeOperator(seeded, '+2250112345678', null, 'live')).toEqual({ kind: 'unsupported' });
    // Whatever its operator's name: an MTN account of the simulator API is the simulator.
    expect(routeOperator([account('MTN', ['+22505'], { simulated: true })], '+2250512345678', null, 'live')).toEqual({
      kind: 'unsupported',
    });
    // Without any account, nothing falls back to the settings' simulator.
    expect(routeOperator([], '+22890000006', null, 'live')).toEqual({ kind: 'unsupported' });
  });

  it("sandbox: a number no account serves goes to the subsidiary's simulator; a named operator without an account does not", () => {
    expect(routeOperator(seeded, '+2250112345678', null, 'sandbox')).toEqual({ kind: 'routed', operator: 'SIMULATOR' });
    expect(routeOperator(seeded, '+2250707000001', null, 'sandbox')).toEqual({ kind: 'routed', operator: 'SIMULATOR' });
    expect(routeOperator(seeded, '+2250512345678', null, 'sandbox')).toEqual({ kind: 'routed', operator: 'MTN' });
    expect(routeOperator(seeded, '+2250112345678', 'MOOV', 'sandbox')).toEqual({ kind: 'unsupported' });
  });

  it('sandbox: a disabled or marked-down simulator takes nothing by default; a disabled operator of the range stays unavailable', () => {
    const off = [
      account('SIMULATOR', ['+2250707'], { simulated: true, enabled: false }),
      account('MTN', ['+22505'], { enabled: false }),
    ];
    expect(routeOperator(off, '+2250112345678', null, 'sandbox')).toEqual({ kind: 'unsupported' });
    expect(routeOperator(off, '+2250512345678', null, 'sandbox')).toEqual({
      kind: 'unavailable',
      operator: 'MTN',
      reason: 'disabled',
    });
    expect(
      routeOperator([account('SIMULATOR', [], { simulated: true, down: true })], '+2250112345678', null, 'sandbox'),
    ).toEqual({ kind: 'unsupported' });
  });
});

describe('isOperatorPrefix', () => {
  it.each(['+22505', '+237650', '+2250707000'])('accepts %s', (p) => expect(isOperatorPrefix(p)).toBe(true));
  it.each(['22505', '+0', '+2', '05', '+22 505', '+2250a'])('refuses %s', (p) =>
    expect(isOperatorPrefix(p)).toBe(false),
  );
});
