import { failureText, negotiateLang, pageState } from './i18n.js';

describe('negotiateLang', () => {
  it.each([
    [undefined, 'fr'],
    ['', 'fr'],
    ['en-US,en;q=0.9', 'en'],
    ['fr-FR,fr;q=0.9,en;q=0.8', 'fr'],
    ['en;q=0.5,fr;q=0.8', 'fr'],
    ['fr;q=0.4, en-GB;q=0.7', 'en'],
    ['de-DE,de;q=0.9', 'fr'],
    ['de,en;q=0.3', 'en'],
    ['en;q=0, fr;q=0.1', 'fr'],
    ['en;q=0', 'fr'],
    ['*', 'fr'],
    ['EN', 'en'],
    ['en;q=abc', 'fr'],
    ['en;q=2', 'fr'],
    ['en;q=1.0,fr;q=1', 'en'],
  ])('%p -> %s', (header, lang) => {
    expect(negotiateLang(header)).toBe(lang);
  });
});

describe('pageState and failureText', () => {
  it('reads CREATED and INITIATED as sending and keeps the others', () => {
    expect(pageState('CREATED')).toBe('SENDING');
    expect(pageState('INITIATED')).toBe('SENDING');
    for (const s of ['PENDING', 'SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED']) expect(pageState(s)).toBe(s);
  });
  it('words every failure code in both languages and falls back to unknown', () => {
    expect(failureText('fr', 'INSUFFICIENT_BALANCE')).toBe('Solde insuffisant.');
    expect(failureText('en', 'INVALID_SECRET_CODE')).toBe('Wrong secret code.');
    expect(failureText('en', 'THRESHOLD_REACHED')).toMatch(/limit reached/);
    expect(failureText('en', 'CUSTOMER_DID_NOT_VALIDATE')).toMatch(/cancelled/);
    expect(failureText('fr', null)).toBe('Raison inconnue.');
    expect(failureText('en', 'SOMETHING_NEW')).toBe('Unknown reason.');
  });
});
