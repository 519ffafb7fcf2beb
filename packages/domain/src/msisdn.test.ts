import { maskMsisdn, parseMsisdn } from './msisdn.js';

describe('MSISDN parsing (decisions 4: E.164 through libphonenumber)', () => {
  it.each([
    ['+2250707000001', 'CI'],
    ['+2250101020304', 'CI'],
    ['+221771234501', 'SN'],
    ['+237677123456', 'CM'],
    ['+2290197123456', 'BJ'],
  ])('%s is valid and belongs to %s', (raw, country) => {
    expect(parseMsisdn(raw)).toEqual({ e164: raw, countryCode: country });
  });

  it('accepts a valid number of a country the service does not cover (support is checked elsewhere)', () => {
    expect(parseMsisdn('+33612345678')).toEqual({ e164: '+33612345678', countryCode: 'FR' });
  });

  it.each([
    ['2250707000001', 'no leading +'],
    ['+225 07 07 00 00 01', 'spaces'],
    ['+225-0707000001', 'punctuation'],
    ['+22507070000', "too short for Côte d'Ivoire"],
    ['+22507070000011', "too long for Côte d'Ivoire"],
    ['+22997123456', "Benin's old 8-digit plan"],
    ['+0225070700001', 'country code starting with 0'],
    ['+225070700000a', 'a letter'],
    ['', 'empty'],
    ['+', 'only a plus'],
  ])('rejects %s (%s)', (raw) => {
    expect(parseMsisdn(raw)).toBeNull();
  });
});

describe('MSISDN masking', () => {
  it('keeps the country prefix and the last two digits', () => {
    expect(maskMsisdn('+2250707000001')).toBe('+22507******01');
    expect(maskMsisdn('+221771234501')).toBe('+22177*****01');
  });

  it('keeps the length, so a masked number still looks like one', () => {
    for (const n of ['+2250707000001', '+221771234501', '+237677123456']) expect(maskMsisdn(n)).toHaveLength(n.length);
  });

  it('masks a very short value entirely', () => {
    expect(maskMsisdn('+12345')).toBe('******');
  });
});
