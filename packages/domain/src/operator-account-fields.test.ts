import {
  parseDownReason,
  parseOperatorBaseUrl,
  parseOperatorCredentials,
  parseOperatorPrefixes,
  parseOperatorSettings,
} from './operator-account-fields.js';
import { isOperatorApiName, OPERATOR_API_NAMES } from './operator-routing.js';

describe('operator account fields', () => {
  it('prefixes: commas or spaces, deduplicated, longest first; a bad one is named and refuses the whole list', () => {
    expect(parseOperatorPrefixes(' +22505, +2250555\n+22505  +22504 ')).toEqual({
      ok: true,
      value: ['+2250555', '+22504', '+22505'],
    });
    expect(parseOperatorPrefixes('')).toEqual({ ok: true, value: [] });
    const bad = parseOperatorPrefixes('+22505, 07, +0123');
    expect(bad).toEqual({ ok: false, error: expect.stringMatching(/^Not a prefix: 07, \+0123\./) });
  });

  it('base URL: http(s) or empty (none); no user name or password in it', () => {
    expect(parseOperatorBaseUrl(' https://api.example/v1 ')).toEqual({ ok: true, value: 'https://api.example/v1' });
    expect(parseOperatorBaseUrl('')).toEqual({ ok: true, value: null });
    for (const bad of ['ftp://x.example', 'api.example', 'javascript:alert(1)'])
      expect(parseOperatorBaseUrl(bad).ok).toBe(false);
    expect(parseOperatorBaseUrl('https://u:p@api.example')).toEqual({
      ok: false,
      error: expect.stringContaining('user name or password'),
    });
  });

  it('settings: a JSON object (empty: {}); arrays, scalars and broken JSON are refused', () => {
    expect(parseOperatorSettings('{"targetEnvironment":"sandbox","n":2}')).toEqual({
      ok: true,
      value: { targetEnvironment: 'sandbox', n: 2 },
    });
    expect(parseOperatorSettings(' ')).toEqual({ ok: true, value: {} });
    for (const bad of ['[1]', '"x"', 'null', '{oops}'])
      expect(parseOperatorSettings(bad)).toEqual({ ok: false, error: expect.stringContaining('JSON') });
  });

  it('credentials: name=value lines or a JSON object of strings; errors never repeat a value', () => {
    expect(parseOperatorCredentials('# MTN sandbox\napiUser = u-1\n\napiKey=k=with=equals\r\n')).toEqual({
      ok: true,
      value: { apiUser: 'u-1', apiKey: 'k=with=equals' },
    });
    expect(parseOperatorCredentials('{"clientId":"c","clientSecret":"s"}')).toEqual({
      ok: true,
      value: { clientId: 'c', clientSecret: 's' },
    });
    const secret = 'sk-live-very-secret';
    for (const bad of [
      secret,
      `apiKey=${secret}\n${secret}`,
      `{"apiKey": ${secret}}`,
      `{"apiKey": 12}`,
      '',
      `apiKey=${secret}\napiKey=${secret}2`,
      `bad name=${secret}`,
    ]) {
      const r = parseOperatorCredentials(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).not.toContain(secret);
    }
  });

  it('down reason: 3 to 200 characters', () => {
    expect(parseDownReason('  timeouts since 10:02 ')).toEqual({ ok: true, value: 'timeouts since 10:02' });
    expect(parseDownReason('x').ok).toBe(false);
    expect(parseDownReason('x'.repeat(201)).ok).toBe(false);
  });

  it('API names: the adapters built and those being built', () => {
    expect(OPERATOR_API_NAMES).toEqual(['simulator', 'mtn-momo', 'orange-webpay', 'orange-mp', 'wave']);
    expect(isOperatorApiName('orange-mp')).toBe(true);
    expect(isOperatorApiName('Orange')).toBe(false);
  });
});
