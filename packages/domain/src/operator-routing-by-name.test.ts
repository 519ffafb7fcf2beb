import { operatorsByNameOnly, routeOperator, type RoutableAccount } from './operator-routing.js';

const account = (operator: string, prefixes: string[], o: Partial<RoutableAccount> = {}): RoutableAccount => ({
  operator,
  prefixes,
  enabled: true,
  down: false,
  ...o,
});

describe('operatorsByNameOnly: the operators a customer picks by name on a link page', () => {
  it("Côte d'Ivoire as seeded: Wave alone (every other operator is reached by its prefixes)", () => {
    const ci = [
      account('SIMULATOR', ['+2250700', '+2250707'], { simulated: true }),
      account('MTN', ['+22505']),
      account('ORANGE', ['+22507']),
      account('WAVE', []),
    ];
    expect(operatorsByNameOnly(ci)).toEqual(['WAVE']);
    expect(operatorsByNameOnly(ci, 'live')).toEqual(['WAVE']);
  });

  it('none when every account serves prefixes, or there is no account', () => {
    expect(operatorsByNameOnly([account('MTN', ['+22505']), account('ORANGE', ['+22507'])])).toEqual([]);
    expect(operatorsByNameOnly([])).toEqual([]);
  });

  it('leaves out a disabled account and one marked down', () => {
    expect(
      operatorsByNameOnly([
        account('WAVE', [], { enabled: false }),
        account('MOOV', [], { down: true }),
        account('ORANGE', [], { enabled: false, down: true }),
      ]),
    ).toEqual([]);
    expect(operatorsByNameOnly([account('WAVE', [], { enabled: false }), account('MOOV', [])])).toEqual(['MOOV']);
  });

  it('every no-prefix account that takes payments, in the order given', () => {
    expect(operatorsByNameOnly([account('WAVE', []), account('MTN', ['+22505']), account('MOOV', [])])).toEqual([
      'WAVE',
      'MOOV',
    ]);
  });

  it('a simulated no-prefix account: offered in a sandbox (the default mode), never live', () => {
    const accounts = [account('SIMULATOR', [], { simulated: true }), account('WAVE', [])];
    expect(operatorsByNameOnly(accounts)).toEqual(['SIMULATOR', 'WAVE']);
    expect(operatorsByNameOnly(accounts, 'sandbox')).toEqual(['SIMULATOR', 'WAVE']);
    expect(operatorsByNameOnly(accounts, 'live')).toEqual(['WAVE']);
  });

  it('live drops a simulated account whatever its operator name; one not marked simulated stays', () => {
    const accounts = [account('WAVE', [], { simulated: true }), account('MOOV', [], { simulated: false })];
    expect(operatorsByNameOnly(accounts, 'live')).toEqual(['MOOV']);
    expect(operatorsByNameOnly(accounts, 'sandbox')).toEqual(['WAVE', 'MOOV']);
  });

  it('each operator it offers is one routeOperator takes when named, in the same mode', () => {
    const accounts = [
      account('SIMULATOR', [], { simulated: true }),
      account('WAVE', []),
      account('MOOV', [], { down: true }),
      account('MTN', ['+22505']),
    ];
    for (const mode of ['sandbox', 'live'] as const)
      for (const operator of operatorsByNameOnly(accounts, mode))
        expect(routeOperator(accounts, '+2250712345678', operator, mode)).toEqual({ kind: 'routed', operator });
  });
});
