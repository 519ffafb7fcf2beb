import { callingCodeOf, parseMsisdn, typedMsisdn } from './msisdn.js';

describe('callingCodeOf', () => {
  it.each([
    ['CI', '+225'],
    ['CM', '+237'],
    ['SN', '+221'],
    ['BJ', '+229'],
  ])('%s is %s', (country, code) => {
    expect(callingCodeOf(country)).toBe(code);
  });
});

describe('typedMsisdn: a number as a customer types it on a page of their country', () => {
  it.each([
    ['0707000001', 'CI', '+2250707000001'],
    ['07 07 00 00 01', 'CI', '+2250707000001'],
    ['07.07.00.00.01', 'CI', '+2250707000001'],
    ['07-07-00-00-01', 'CI', '+2250707000001'],
    ['(07) 07 00 00 01', 'CI', '+2250707000001'],
    ['\t0707000001\n', 'CI', '+2250707000001'],
    ['677123456', 'CM', '+237677123456'],
    ['77 123 45 01', 'SN', '+221771234501'],
  ])('%j in %s: the country prefix put in front, separators dropped: %s', (typed, country, e164) => {
    expect(typedMsisdn(typed, country)).toBe(e164);
  });

  it.each([
    ['+2250707000001', 'CI', '+2250707000001'],
    ['+225 07 07 00 00 01', 'CI', '+2250707000001'],
    ['+225 (07) 07-00.00.01', 'CI', '+2250707000001'],
    // Typed on a page of another country: the number keeps its own prefix.
    ['+237677123456', 'CI', '+237677123456'],
  ])('%j in %s: already with "+", kept as it is, separators dropped: %s', (typed, country, e164) => {
    expect(typedMsisdn(typed, country)).toBe(e164);
  });

  it.each([
    ['002250707000001', 'CI', '+2250707000001'],
    ['00 225 07 07 00 00 01', 'CI', '+2250707000001'],
    ['00237677123456', 'CI', '+237677123456'],
  ])('%j in %s: "00" read as "+": %s', (typed, country, e164) => {
    expect(typedMsisdn(typed, country)).toBe(e164);
  });

  it.each(['', ' ', '  ', '.-()', ' ( ) '])('%j stays empty (no lone prefix)', (typed) => {
    expect(typedMsisdn(typed, 'CI')).toBe('');
  });

  it('what it makes of a valid typed number is a valid E.164 number of that country', () => {
    expect(parseMsisdn(typedMsisdn('07 07 00 00 01', 'CI'))).toEqual({ e164: '+2250707000001', countryCode: 'CI' });
    expect(parseMsisdn(typedMsisdn('6 77 12 34 56', 'CM'))).toEqual({ e164: '+237677123456', countryCode: 'CM' });
  });

  it('leaves the checking to parseMsisdn: letters are kept and the result is refused there', () => {
    const typed = typedMsisdn('07 07 abc', 'CI');
    expect(typed).toBe('+2250707abc');
    expect(parseMsisdn(typed)).toBeNull();
  });
});
