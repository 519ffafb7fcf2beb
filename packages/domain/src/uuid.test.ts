import { isUuid } from './uuid.js';

describe('isUuid', () => {
  it('takes the canonical spelling, either case', () => {
    expect(isUuid('7919ab04-6772-4081-970c-5e3b23a00adf')).toBe(true);
    expect(isUuid('7919AB04-6772-4081-970C-5E3B23A00ADF')).toBe(true);
  });
  it.each([
    '(7919ab04-6772-4081-970c-5e3b23a00adf)',
    '[7919ab04-6772-4081-970c-5e3b23a00adf]',
    '7919ab04:6772:4081:970c:5e3b23a00adf',
    '7919ab0467724081970c5e3b23a00adf',
    '',
    'x',
  ])('refuses %p (PostgreSQL would refuse it, or read it otherwise)', (v) => {
    expect(isUuid(v)).toBe(false);
  });
});
