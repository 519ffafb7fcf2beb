import { DomainError } from './errors.js';
import {
  chosenLinkAmount,
  linkRefusal,
  linkStatus,
  linkTerms,
  paymentLinkUrl,
  type LinkAmount,
  type LinkStateInputs,
  type NewLinkTerms,
} from './payment-link.js';

const limits = { min: 100, max: 1_000_000 };
const now = new Date('2031-03-14T12:00:00.000Z');
const later = '2031-03-15T12:00:00.000Z';

/** The DomainError linkTerms throws for `body`. */
function refusal(body: NewLinkTerms): DomainError {
  try {
    linkTerms(body, limits, 'XOF', now);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('linkTerms accepted the terms');
}

const fieldsOf = (err: DomainError) => (err.details ?? []).map((d) => d.field);

describe('linkTerms', () => {
  it('a fixed amount, single-use by default: max_payments 1, no expiry', () => {
    expect(linkTerms({ amount: 15000 }, limits, 'XOF', now)).toEqual({
      amount: { kind: 'fixed', amount: 15000 },
      reusable: false,
      maxPayments: 1,
      expiresAt: null,
    });
  });

  it('reusable: false said outright is single-use too', () => {
    expect(linkTerms({ amount: 15000, reusable: false }, limits, 'XOF', now).maxPayments).toBe(1);
  });

  it('bounds, reusable without a cap: maxPayments null', () => {
    expect(linkTerms({ min_amount: 500, max_amount: 5000, reusable: true }, limits, 'XOF', now)).toEqual({
      amount: { kind: 'range', min: 500, max: 5000 },
      reusable: true,
      maxPayments: null,
      expiresAt: null,
    });
  });

  it('reusable with a cap keeps it; the expiry in the future is a Date', () => {
    expect(
      linkTerms({ amount: 1000, reusable: true, max_payments: 50, expires_at: later }, limits, 'XOF', now),
    ).toEqual({
      amount: { kind: 'fixed', amount: 1000 },
      reusable: true,
      maxPayments: 50,
      expiresAt: new Date(later),
    });
  });

  it('bounds equal to each other, and amounts at the limits themselves, are accepted', () => {
    expect(linkTerms({ min_amount: 700, max_amount: 700 }, limits, 'XOF', now).amount).toEqual({
      kind: 'range',
      min: 700,
      max: 700,
    });
    expect(linkTerms({ amount: limits.min }, limits, 'XOF', now).amount).toEqual({ kind: 'fixed', amount: 100 });
    expect(linkTerms({ amount: limits.max }, limits, 'XOF', now).amount).toEqual({ kind: 'fixed', amount: 1_000_000 });
    expect(linkTerms({ min_amount: limits.min, max_amount: limits.max }, limits, 'XOF', now).amount).toEqual({
      kind: 'range',
      min: 100,
      max: 1_000_000,
    });
  });

  it.each<[string, NewLinkTerms, string[]]>([
    ['no amount at all', {}, ['amount']],
    ['amount with min_amount', { amount: 1000, min_amount: 500 }, ['amount']],
    ['amount with max_amount', { amount: 1000, max_amount: 5000 }, ['amount']],
    ['amount with both bounds', { amount: 1000, min_amount: 500, max_amount: 5000 }, ['amount']],
    ['min_amount alone', { min_amount: 500 }, ['max_amount']],
    ['max_amount alone', { max_amount: 5000 }, ['min_amount']],
    ['min_amount above max_amount', { min_amount: 5000, max_amount: 500 }, ['max_amount']],
    ['max_payments on a single-use link (by default)', { amount: 1000, max_payments: 3 }, ['max_payments']],
    ['max_payments on reusable: false', { amount: 1000, reusable: false, max_payments: 1 }, ['max_payments']],
    ['expires_at in the past', { amount: 1000, expires_at: '2031-03-14T11:59:59.999Z' }, ['expires_at']],
    ['expires_at now', { amount: 1000, expires_at: now.toISOString() }, ['expires_at']],
    [
      'every issue at once',
      { min_amount: 5000, max_amount: 500, max_payments: 2, expires_at: '2020-01-01T00:00:00Z' },
      ['max_amount', 'max_payments', 'expires_at'],
    ],
  ])('VALIDATION_ERROR: %s', (_name, body, fields) => {
    const err = refusal(body);
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(fieldsOf(err)).toEqual(fields);
    for (const d of err.details!) expect(d.issue).toEqual(expect.any(String));
  });

  it('validation comes before the limits: bad fields are named even when the amount is out of range too', () => {
    const err = refusal({ amount: 10, max_payments: 2 });
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(fieldsOf(err)).toEqual(['max_payments']);
  });

  it.each<[string, NewLinkTerms]>([
    ['a fixed amount under the minimum', { amount: 99 }],
    ['a fixed amount over the maximum', { amount: 1_000_001 }],
    ['min_amount under the minimum', { min_amount: 99, max_amount: 5000 }],
    ['max_amount over the maximum', { min_amount: 500, max_amount: 1_000_001 }],
    ['both bounds outside', { min_amount: 1, max_amount: 2_000_000 }],
  ])('AMOUNT_OUT_OF_RANGE: %s, naming the limits and the currency', (_name, body) => {
    const err = refusal(body);
    expect(err.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect(err.message).toContain('100');
    expect(err.message).toContain('1000000');
    expect(err.message).toContain('XOF');
  });
});

describe('chosenLinkAmount', () => {
  const fixed: LinkAmount = { kind: 'fixed', amount: 15000 };
  const range: LinkAmount = { kind: 'range', min: 500, max: 10000 };

  it('a fixed link pays its own amount, whatever was typed (or nothing)', () => {
    expect(chosenLinkAmount(fixed, undefined)).toBe(15000);
    expect(chosenLinkAmount(fixed, '')).toBe(15000);
    expect(chosenLinkAmount(fixed, '1')).toBe(15000);
    expect(chosenLinkAmount(fixed, 'abc')).toBe(15000);
  });

  it.each([
    ['5000', 5000],
    ['5 000', 5000],
    ['5\u00a0000', 5000],
    ['5\u202f000', 5000],
    [' 5000 ', 5000],
    ['5.000', 5000],
    ['10.000', 10000],
    ['500', 500],
    ['10000', 10000],
    ['0500', 500],
  ])('range: %j is %d (spaces and dots are thousands separators; bounds inclusive)', (typed, amount) => {
    expect(chosenLinkAmount(range, typed)).toBe(amount);
  });

  it('range: a dot groups thousands only between groups of three ("1.250" is 1250); "12.5" and "5.00" are no amount', () => {
    expect(chosenLinkAmount(range, '1.250')).toBe(1250);
    expect(chosenLinkAmount({ kind: 'range', min: 1, max: 10000 }, '12.5')).toBeNull();
    expect(chosenLinkAmount({ kind: 'range', min: 1, max: 10000 }, '5.00')).toBeNull();
  });

  it.each<[string | undefined, string]>([
    [undefined, 'nothing'],
    ['', 'empty'],
    ['   ', 'only spaces'],
    ['abc', 'letters'],
    ['5000 F', 'a currency after it'],
    ['12,5', 'a decimal comma'],
    ['-600', 'a minus'],
    ['+600', 'a plus'],
    ['1e3', 'an exponent'],
    ['499', 'under min_amount'],
    ['10001', 'over max_amount'],
    ['1234567890123', 'more than 12 digits'],
  ])('range: refuses %j (%s)', (typed) => {
    expect(chosenLinkAmount(range, typed)).toBeNull();
  });
});

const state = (o: Partial<LinkStateInputs> = {}): LinkStateInputs => ({
  deactivatedAt: null,
  expiresAt: null,
  maxPayments: 1,
  paid: 0,
  ...o,
});
const past = new Date('2031-03-14T11:00:00.000Z');
const future = new Date('2031-03-14T13:00:00.000Z');
const deactivated = new Date('2031-03-14T10:00:00.000Z');

describe('linkStatus', () => {
  it('ACTIVE: not deactivated, under its cap, not expired (or no cap, no expiry)', () => {
    expect(linkStatus(state(), now)).toBe('ACTIVE');
    expect(linkStatus(state({ maxPayments: 3, paid: 2, expiresAt: future }), now)).toBe('ACTIVE');
    expect(linkStatus(state({ maxPayments: null, paid: 1000 }), now)).toBe('ACTIVE');
  });

  it('COMPLETED: paid payments reached the cap (a single-use link once paid)', () => {
    expect(linkStatus(state({ paid: 1 }), now)).toBe('COMPLETED');
    expect(linkStatus(state({ maxPayments: 3, paid: 3 }), now)).toBe('COMPLETED');
    expect(linkStatus(state({ maxPayments: 3, paid: 4 }), now)).toBe('COMPLETED');
  });

  it('EXPIRED: at expires_at itself and after it', () => {
    expect(linkStatus(state({ expiresAt: now }), now)).toBe('EXPIRED');
    expect(linkStatus(state({ expiresAt: past }), now)).toBe('EXPIRED');
    expect(linkStatus(state({ expiresAt: new Date(now.getTime() + 1) }), now)).toBe('ACTIVE');
  });

  it('INACTIVE comes before COMPLETED, which comes before EXPIRED', () => {
    expect(linkStatus(state({ deactivatedAt: deactivated, paid: 1, expiresAt: past }), now)).toBe('INACTIVE');
    expect(linkStatus(state({ deactivatedAt: deactivated, paid: 1 }), now)).toBe('INACTIVE');
    expect(linkStatus(state({ deactivatedAt: deactivated, expiresAt: past }), now)).toBe('INACTIVE');
    expect(linkStatus(state({ paid: 1, expiresAt: past }), now)).toBe('COMPLETED');
  });
});

describe('linkRefusal', () => {
  it('null when the link takes the payment', () => {
    expect(linkRefusal({ ...state(), inProgress: 0 }, now)).toBeNull();
    expect(linkRefusal({ ...state({ maxPayments: 3, paid: 1 }), inProgress: 1 }, now)).toBeNull();
  });

  it('BUSY when paid and in-progress payments hold every place, one of them in progress', () => {
    expect(linkRefusal({ ...state(), inProgress: 1 }, now)).toBe('BUSY');
    expect(linkRefusal({ ...state({ maxPayments: 3, paid: 2 }), inProgress: 1 }, now)).toBe('BUSY');
    expect(linkRefusal({ ...state({ maxPayments: 3, paid: 0 }), inProgress: 3 }, now)).toBe('BUSY');
  });

  it('the status when the link is not ACTIVE, before BUSY', () => {
    expect(linkRefusal({ ...state({ paid: 1 }), inProgress: 0 }, now)).toBe('COMPLETED');
    expect(linkRefusal({ ...state({ maxPayments: 3, paid: 3 }), inProgress: 2 }, now)).toBe('COMPLETED');
    expect(linkRefusal({ ...state({ expiresAt: past }), inProgress: 1 }, now)).toBe('EXPIRED');
    expect(linkRefusal({ ...state({ deactivatedAt: deactivated }), inProgress: 1 }, now)).toBe('INACTIVE');
  });

  it('null for a reusable link without a cap, however many payments it has', () => {
    expect(linkRefusal({ ...state({ maxPayments: null, paid: 1_000_000 }), inProgress: 1_000_000 }, now)).toBeNull();
  });
});

describe('paymentLinkUrl', () => {
  it('is the public base, with or without its trailing slash, then /l/ and the slug', () => {
    expect(paymentLinkUrl('https://pay.example.com', 'x0Tn3C1bWQ7a0mF2yJb8pg')).toBe(
      'https://pay.example.com/l/x0Tn3C1bWQ7a0mF2yJb8pg',
    );
    expect(paymentLinkUrl('https://pay.example.com/', 'x0Tn3C1bWQ7a0mF2yJb8pg')).toBe(
      'https://pay.example.com/l/x0Tn3C1bWQ7a0mF2yJb8pg',
    );
  });
});
