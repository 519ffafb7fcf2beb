import fc from 'fast-check';

/**
 * fast-check generators of bad input for the merchant API (scenario 7). Every generator of a request
 * body, header or query that the suite sends expecting a refusal is invalid BY CONSTRUCTION: a valid
 * base gets at least one change that a documented rule refuses on its own, whatever the other changes.
 * Luck is never relied on: a valid cash-in or refund would change the state legitimately.
 */

/** JSON text spliced into a body as is (numbers JSON.stringify cannot write, invalid tokens). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify, except that RawJson is written verbatim. */
export function toJson(v: unknown): string {
  if (v instanceof RawJson) return v.text;
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : toJson(x))).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const fields = Object.entries(v).filter(([, x]) => x !== undefined && typeof x !== 'function');
    return `{${fields.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Marks a field to remove. */
export const DROP = '<dropped>';
export type Change = readonly [field: string, value: unknown];
export type Body = Record<string, unknown>;

export function applyChanges(base: Body, changes: readonly Change[]): Body {
  const body: Body = { ...base };
  for (const [field, value] of changes) {
    if (value === DROP) delete body[field];
    // defineProperty: `body.__proto__ = v` would set the prototype, and the field would vanish from the JSON.
    else Object.defineProperty(body, field, { value, enumerable: true, writable: true, configurable: true });
  }
  return body;
}

export const E164 = /^\+[1-9]\d{6,14}$/;
/** What joi's guid() accepts: brackets, braces, parentheses, ':' or '-' or no separator. */
export const GUID_LIKE = /^[[{(]?[0-9a-f]{8}[:-]?[0-9a-f]{4}[:-]?[0-9a-f]{4}[:-]?[0-9a-f]{4}[:-]?[0-9a-f]{12}[\]})]?$/i;
const KNOWN_FIELDS = new Set([
  'merchant_order_id',
  'amount',
  'currency',
  'customer_msisdn',
  'beneficiary_msisdn',
  'country_code',
  'motif',
  'reason',
  'return_url',
  'notify_url',
  'metadata',
  'transaction_id',
  '#Idempotency-Key',
]);

const notString = fc.anything().filter((v) => typeof v !== 'string' && v !== undefined);
const notNumber = fc.anything().filter((v) => typeof v !== 'number' && v !== undefined);
/** A string of n >= min characters: "huge" up to ~40 KB so the body stays under 64 KiB. */
const longString = (min: number) => fc.integer({ min, max: min + 40_000 }).map((n) => 'x'.repeat(n));
/** Characters outside printable ASCII: not allowed in an order id. */
const nonPrintable = fc.constantFrom(
  ' ',
  '\t',
  '\n',
  '\u0000',
  '\u007f',
  'é',
  '\u202e',
  '\u{1F600}',
  '\ud800',
  '\u00a0',
);
const withNonPrintable = fc
  .tuple(fc.string({ maxLength: 20 }), nonPrintable, fc.string({ maxLength: 20 }))
  .map(([a, c, b]) => a + c + b);

/** Amounts refused by the schema of every endpoint (type, sign, integer, safe range, JSON number syntax). */
export const badAmount = fc.oneof(
  notNumber,
  fc.integer({ max: 0 }),
  fc.double().filter((d) => !Number.isInteger(d)),
  fc.bigInt({ min: 2n ** 53n, max: 10n ** 40n }).map((b) => new RawJson(String(b))),
  fc
    .constantFrom(
      '1e400',
      '-1e400',
      '-0',
      '0.0',
      'NaN',
      'Infinity',
      '-Infinity',
      '0x10',
      '+5',
      '.5',
      '05',
      '1_000',
      '5000.',
      '1e',
    )
    .map((t) => new RawJson(t)),
  fc.integer({ min: 100, max: 1_000_000 }).map(String),
);
const badOrderId = fc.oneof(notString, fc.constant(''), longString(101), withNonPrintable);
/** Not E.164, too long, or a valid number of a country that is no active subsidiary (FR, US). */
const badMsisdn = fc.oneof(
  notString,
  longString(21),
  fc.string({ maxLength: 25 }).filter((s) => !E164.test(s)),
  fc.constantFrom(
    '+33612345678',
    '+14155552671',
    '2250707000001',
    '+225 07 07 00 00 01',
    '+2250707000001\u0000',
    '00225070700001',
  ),
);
const badUrl = fc.oneof(
  notString,
  longString(2049).map((s) => `https://x.example/${s}`),
  fc.constantFrom('ftp://x.example/a', 'javascript:alert(1)', 'not a url', 'mailto:a@b.example', 'file:///etc/passwd'),
);
const badText = (max: number) => fc.oneof(notString, longString(max + 1));
const extraField: fc.Arbitrary<Change> = fc.tuple(
  fc
    .oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'Amount', 'amount '), fc.string({ maxLength: 30 }))
    .filter((k) => !KNOWN_FIELDS.has(k)),
  fc.jsonValue(),
);
const badMetadata = fc.oneof(
  fc.oneof(fc.array(fc.jsonValue()), fc.string(), fc.integer(), fc.constant(null), fc.boolean()),
  fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 10 }), { minLength: 11, maxLength: 30 })
    .map((keys) => Object.fromEntries(keys.map((k) => [k, 'v']))),
  fc
    .tuple(
      fc.string({ maxLength: 10 }),
      fc.oneof(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.jsonValue()),
        fc.constant(null),
        longString(501),
      ),
    )
    .map(([k, v]) => ({ k0: 'ok', [k]: v })),
  longString(101).map((k) => ({ [k]: 'v' })),
);
const badCurrency = fc.constantFrom('XAF', 'EUR', 'USD', 'xof', 'XO', 'XOFF', '', '\u0000OF');

/** Optional cash-in fields with values of any kind: noise, the required change makes the body invalid. */
const noise = fc.record(
  {
    motif: fc.string({ unit: 'binary', maxLength: 80 }),
    metadata: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.boolean()), {
      maxKeys: 4,
    }),
    return_url: fc.webUrl(),
  },
  { requiredKeys: [] },
);

/** A cash-in body (+2250707000001, else valid) with 1-3 changes each of which the gateway must refuse. */
export const badCashin = fc
  .record({
    base: fc.record({
      merchant_order_id: fc.stringMatching(/^bad-[a-z0-9]{6}$/),
      amount: fc.integer({ min: 100, max: 5_000_000 }),
      customer_msisdn: fc.constant('+2250707000001'),
    }),
    noise,
    changes: fc.array(
      fc.oneof(
        fc.constantFrom<Change>(['merchant_order_id', DROP], ['amount', DROP], ['customer_msisdn', DROP]),
        badOrderId.map((v): Change => ['merchant_order_id', v]),
        fc
          .oneof(
            badAmount,
            fc.integer({ min: 1, max: 99 }),
            fc.integer({ min: 5_000_001, max: Number.MAX_SAFE_INTEGER }),
          )
          .map((v): Change => ['amount', v]),
        badMsisdn.map((v): Change => ['customer_msisdn', v]),
        fc.constantFrom('SN', 'CM', 'XX', 'ci', 'CIV', '').map((v): Change => ['country_code', v]),
        badCurrency.map((v): Change => ['currency', v]),
        badText(255).map((v): Change => ['motif', v]),
        badUrl.map((v): Change => ['notify_url', v]),
        badUrl.map((v): Change => ['return_url', v]),
        badMetadata.map((v): Change => ['metadata', v]),
        extraField,
      ),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ base, noise: n, changes }) => ({ body: applyChanges({ ...base, ...n }, changes), changes }));

/** A cash-out body, else valid (it would answer 501), with 1-3 changes each refused before the 501. */
export const badCashout = fc
  .record({
    base: fc.record({
      merchant_order_id: fc.stringMatching(/^bad-[a-z0-9]{6}$/),
      amount: fc.integer({ min: 1, max: 10_000_000 }),
      beneficiary_msisdn: fc.constant('+2250707000001'),
    }),
    changes: fc.array(
      fc.oneof(
        fc.constantFrom<Change>(['merchant_order_id', DROP], ['amount', DROP], ['beneficiary_msisdn', DROP]),
        badOrderId.map((v): Change => ['merchant_order_id', v]),
        badAmount.map((v): Change => ['amount', v]),
        badMsisdn.map((v): Change => ['beneficiary_msisdn', v]),
        badCurrency.map((v): Change => ['currency', v]),
        badText(255).map((v): Change => ['reason', v]),
        badUrl.map((v): Change => ['notify_url', v]),
        extraField,
      ),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ base, changes }) => ({ body: applyChanges(base, changes), changes }));

/** Spellings of one UUID; joi accepts them all, PostgreSQL only some (plain, upper, braces, no separator). */
export const UUID_SPELLINGS = ['plain', 'upper', 'braces', 'brackets', 'parentheses', 'colons', 'bare'] as const;
export type UuidSpelling = (typeof UUID_SPELLINGS)[number];
export function spell(uuid: string, how: UuidSpelling): string {
  return {
    plain: uuid,
    upper: uuid.toUpperCase(),
    braces: `{${uuid}}`,
    brackets: `[${uuid}]`,
    parentheses: `(${uuid})`,
    colons: uuid.replace(/-/g, ':'),
    bare: uuid.replace(/-/g, ''),
  }[how];
}
export const unknownUuid = fc.tuple(fc.uuid(), fc.constantFrom(...UUID_SPELLINGS)).map(([u, how]) => spell(u, how));
export const notAGuid = fc.oneof(
  notString,
  fc.string({ unit: 'binary', maxLength: 60 }).filter((s) => !GUID_LIKE.test(s)),
);
// Long, not huge: a header over Node's 16 KB limit is refused by the HTTP parser itself (431).
const badIdempotencyKey = fc.oneof(
  fc.constantFrom('', 'a b', 'clé', 'tab\there'),
  fc.integer({ min: 256, max: 2000 }).map((n) => 'k'.repeat(n)),
);

/**
 * A refund of the real SUCCESS cash-in (id in a spelling PostgreSQL reads as that id, amount within
 * it: valid) with 1-3 changes each refused on its own: an unknown transaction, an amount above the
 * captured one or malformed, a bad reason, an unknown field, a bad Idempotency-Key header.
 */
export function badRefund(realId: string, realAmount: number) {
  return fc
    .record({
      base: fc.record(
        {
          transaction_id: fc
            .constantFrom<UuidSpelling>('plain', 'upper', 'braces', 'bare')
            .map((how) => spell(realId, how)),
          amount: fc.integer({ min: 1, max: realAmount }),
          reason: fc.string({ maxLength: 40 }),
        },
        { requiredKeys: ['transaction_id'] },
      ),
      changes: fc.array(
        fc.oneof(
          fc.constant<Change>(['transaction_id', DROP]),
          notAGuid.map((v): Change => ['transaction_id', v]),
          unknownUuid.map((v): Change => ['transaction_id', v]),
          badAmount.map((v): Change => ['amount', v]),
          fc.integer({ min: realAmount + 1, max: Number.MAX_SAFE_INTEGER }).map((v): Change => ['amount', v]),
          badText(255).map((v): Change => ['reason', v]),
          extraField,
          badIdempotencyKey.map((v): Change => ['#Idempotency-Key', v]),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    })
    .map(({ base, changes }) => {
      const all = applyChanges(base, changes);
      const key = all['#Idempotency-Key'];
      delete all['#Idempotency-Key'];
      const headers: Record<string, string> = typeof key === 'string' ? { 'Idempotency-Key': key } : {};
      return { body: all, changes, headers };
    });
}

/** Any JSON (or anything) that is no object, or an object without `required`. */
export const notABody = (required: string) =>
  fc.oneof(fc.jsonValue(), fc.anything()).map((v) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const copy: Body = { ...(v as Body) };
      delete copy[required];
      return copy;
    }
    return v;
  });

// ---- Property 2: authentication headers ---------------------------------------------------------

export const AUTH_HEADERS = ['X-Service-Key', 'X-Service-Timestamp', 'X-Service-Signature'] as const;
/** Header text with no leading/trailing blanks (a server trims them), not empty. */
const headerText = fc
  .string({ minLength: 1, maxLength: 80 })
  .map((s) => s.trim())
  .filter((s) => s !== '');
const hex = fc.stringMatching(/^[0-9a-f]{1,8}$/);

/** One thing wrong with otherwise correct authentication headers, and the code decisions 2 gives it. */
export const authFault = fc.oneof(
  fc.subarray([...AUTH_HEADERS], { minLength: 1 }).map((headers) => ({ kind: 'missing' as const, headers })),
  fc
    .tuple(fc.constantFrom(...AUTH_HEADERS), fc.constantFrom('', '   '))
    .map(([header, value]) => ({ kind: 'blank' as const, header, value })),
  fc
    .oneof(
      headerText.map((v) => ({ how: 'random', v })),
      fc.constantFrom('upper', 'plus-x', 'minus-last', 'twice', 'latin1').map((how) => ({ how, v: '' })),
    )
    .map((key) => ({ kind: 'key' as const, ...key })),
  fc
    .oneof(
      fc
        .oneof(fc.integer({ min: 310, max: 2e9 }), fc.integer({ min: -2e9, max: -310 }))
        .map((offset) => ({ how: 'offset', offset, text: '' })),
      fc
        .constantFrom('float', 'negative', 'plus', 'hex', 'exponent', 'suffix', 'thirteen-digits', 'zero')
        .map((how) => ({ how, offset: 0, text: '' })),
      fc.integer({ min: 13, max: 40 }).map((n) => ({ how: 'text', offset: 0, text: '9'.repeat(n) })),
      headerText.filter((s) => !/^\d+$/.test(s)).map((text) => ({ how: 'text', offset: 0, text })),
    )
    .map((ts) => ({ kind: 'timestamp' as const, ...ts })),
  fc
    .oneof(
      fc
        .constantFrom('upper', 'base64', 'prefixed', 'no-timestamp', 'other-timestamp', 'other-body', 'twice')
        .map((how) => ({ how, n: 0, text: '' })),
      fc.integer({ min: 1, max: 63 }).map((n) => ({ how: 'truncate', n, text: '' })),
      fc.integer({ min: 0, max: 63 }).map((n) => ({ how: 'flip', n, text: '' })),
      hex.map((text) => ({ how: 'extend', n: 0, text })),
      headerText.map((text) => ({ how: 'random', n: 0, text })),
      headerText.map((text) => ({ how: 'wrong-secret', n: 0, text })),
    )
    .map((sig) => ({ kind: 'signature' as const, ...sig })),
);
export type AuthFault = typeof authFault extends fc.Arbitrary<infer T> ? T : never;

export interface Credentials {
  apiKey: string;
  secret: string;
  sign(secret: string, timestamp: string, body: Buffer | string): string;
}

/** The headers to send for `fault` (a header twice is an array) and the only code that may answer. */
export function faultyHeaders(
  f: AuthFault,
  c: Credentials,
  body: Buffer,
  nowS: number,
): { headers: Record<string, string | string[]>; code: string } {
  let key: string | string[] = c.apiKey;
  let ts = String(nowS);
  let sig: string | string[] = c.sign(c.secret, ts, body);
  const good = sig;
  let code = 'AUTHENTICATION_REQUIRED';
  if (f.kind === 'key') {
    code = 'INVALID_API_KEY';
    key =
      {
        random: f.v,
        upper: c.apiKey.toUpperCase(),
        'plus-x': `${c.apiKey}x`,
        'minus-last': c.apiKey.slice(0, -1),
        twice: [c.apiKey, c.apiKey],
        latin1: `${c.apiKey}é`,
      }[f.how] ?? 'x';
    if (key === c.apiKey) key = `${key}0`;
  } else if (f.kind === 'timestamp') {
    code = 'TIMESTAMP_OUT_OF_TOLERANCE';
    ts =
      {
        offset: String(nowS + f.offset),
        float: `${nowS}.5`,
        negative: `-${nowS}`,
        plus: `+${nowS}`,
        hex: `0x${nowS.toString(16)}`,
        exponent: `${nowS / 1e9}e9`,
        suffix: `${nowS}s`,
        'thirteen-digits': `0${nowS}00`,
        zero: '0',
        text: f.text,
      }[f.how] ?? 'x';
    sig = c.sign(c.secret, ts, body);
  } else if (f.kind === 'signature') {
    code = 'INVALID_SIGNATURE';
    const flipped = good.slice(0, f.n) + (good[f.n] === '0' ? '1' : '0') + good.slice(f.n + 1);
    sig =
      {
        upper: good.toUpperCase(),
        base64: Buffer.from(good, 'hex').toString('base64'),
        prefixed: `sha256=${good}`,
        'no-timestamp': c.sign(c.secret, '', body),
        'other-timestamp': c.sign(c.secret, String(nowS - 1), body),
        'other-body': c.sign(c.secret, ts, Buffer.concat([body, Buffer.from(' ')])),
        twice: [good, good],
        truncate: good.slice(0, f.n),
        flip: flipped,
        extend: good + f.text,
        random: f.text,
        'wrong-secret': c.sign(`${c.secret}${f.text}`, ts, body),
      }[f.how] ?? 'x';
    if (sig === good) sig = `${good}0`;
  }
  const headers: Record<string, string | string[]> = {
    'X-Service-Key': key,
    'X-Service-Timestamp': ts,
    'X-Service-Signature': sig,
  };
  if (f.kind === 'missing') for (const h of f.headers) delete headers[h];
  if (f.kind === 'blank') headers[f.header] = f.value;
  return { headers, code };
}

// ---- Property 3: content types -------------------------------------------------------------------

/** Media types that are not application/json (decisions 3: 415), and no Content-Type at all (null). */
export const notJsonType = fc.oneof(
  fc.constantFrom(
    null,
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=----x',
    'application/xml',
    'text/xml',
    'text/json',
    'application/jsonp',
    'application/json-patch+json',
    'application/problem+json',
    'application/octet-stream',
    'text/html',
    'application/javascript',
    '*/*',
    'application/*',
    'json',
    'application',
    'application/json/x',
    ';',
  ),
  headerText.map((s) => `x-${s}`),
);

// ---- Property 4: bodies the gateway cannot read ---------------------------------------------------

const LIMIT = 64 * 1024;
/** `depth` levels of one shape, cut so that the whole body stays within 64 KiB. */
export function nested(shape: 'array' | 'object' | 'mixed', depth: number, room = LIMIT): string {
  const shapes: Record<typeof shape, [string, string, string]> = {
    array: ['[', ']', ''],
    object: ['{"a":', '}', '1'],
    mixed: ['[{"a":', '}]', '0'],
  };
  const [open, close, inner] = shapes[shape];
  const d = Math.min(depth, Math.floor((room - inner.length) / (open.length + close.length)));
  return open.repeat(d) + inner + close.repeat(d);
}
export const nesting = fc.record({
  shape: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
  where: fc.constantFrom('top', 'metadata', 'metadata-value', 'amount'),
  depth: fc.integer({ min: 1000, max: 40_000 }),
});

/** Ways to make JSON text unparseable (the bytes around `at`, a fraction of the text). */
export const jsonBreak = fc.record({
  how: fc.constantFrom(
    'truncate',
    'trailing-comma',
    'nan',
    'single-quotes',
    'bom',
    'comment',
    'unquoted-key',
    'control-char',
    'lone-surrogate-bytes',
    'overlong-utf8',
    'byte-ff',
    'two-documents',
    'empty',
    'blank',
    'leading-garbage',
  ),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
});
export function breakJson(text: string, how: string, at: number): Buffer {
  const b = (s: string) => Buffer.from(s);
  const motif = text.indexOf('"motif":"') + 9;
  const inMotif = (bytes: number[]) =>
    Buffer.concat([b(text.slice(0, motif)), Buffer.from(bytes), b(text.slice(motif))]);
  switch (how) {
    case 'truncate':
      return b(text.slice(0, 1 + Math.floor(at * (text.length - 2))));
    case 'trailing-comma':
      return b(`${text.slice(0, -1)},}`);
    case 'nan':
      return b(`${text.slice(0, -1)},"amount":NaN}`);
    case 'single-quotes':
      return b(text.replace(/"/g, "'"));
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b(text)]);
    case 'comment':
      return b(`/* c */${text}`);
    case 'unquoted-key':
      return b(text.replace('"motif"', 'motif'));
    case 'control-char':
      return inMotif([0x01]);
    case 'lone-surrogate-bytes':
      return inMotif([0xed, 0xa0, 0x80]);
    case 'overlong-utf8':
      return inMotif([0xc0, 0xaf]);
    case 'byte-ff':
      return inMotif([0xff]);
    case 'two-documents':
      return b(text + text);
    case 'empty':
      return Buffer.alloc(0);
    case 'blank':
      return b(' \n\t ');
    default:
      return b(`x${text}`);
  }
}

/** Content-Encoding the body does not have, a truncated stream, or a bomb that inflates past 64 KiB. */
export const encodingFault = fc.record({
  encoding: fc.constantFrom('gzip', 'deflate', 'br', 'GZIP', 'gzip, deflate', 'compress', 'x-unknown'),
  payload: fc.constantFrom('plain', 'truncated', 'bomb'),
  signed: fc.boolean(),
});

// ---- Property 5: query strings ------------------------------------------------------------------

export type QueryBreak =
  | { kind: 'drop'; key: string }
  | { kind: 'repeat'; key: string }
  | { kind: 'set'; key: string; value: string }
  | { kind: 'inverted'; days: number }
  | { kind: 'too-long'; days: number }
  | { kind: 'raw'; text: string };
const unknownKey = (known: string[]) => fc.string({ maxLength: 12 }).filter((k) => !known.includes(k));
const rawQuery = fc.constantFrom('%E0%A4%A', '%ZZ', '%', '%00', '[]=1', '=x', '&&', '%FF%FE');
const badDay = fc.oneof(
  fc.constantFrom(
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-1-01',
    '20260101',
    '2026-01-01T00:00:00Z',
    '01/02/2026',
    '',
    ' 2026-01-01',
    '+002026-01-01',
  ),
  fc.string({ unit: 'binary', maxLength: 20 }).filter((s) => !/^\d{4}-\d{2}-\d{2}$/.test(s)),
);
const EXPORT_KEYS = ['date_from', 'date_to', 'format', 'country_code'];
const DAY_MS = 86_400_000;

/** A valid export query (dates 2000..2090, at most 366 days) with 1-3 breaks, each refused on its own. */
export const badExportQuery = fc
  .record({
    from: fc.integer({ min: Date.UTC(2000, 0, 1) / DAY_MS, max: Date.UTC(2090, 0, 1) / DAY_MS }),
    span: fc.integer({ min: 0, max: 365 }),
    format: fc.option(fc.constantFrom('json', 'csv'), { nil: undefined }),
    country: fc.option(fc.constantFrom('CI', 'SN', 'CM'), { nil: undefined }),
    breaks: fc.array(
      fc.oneof(
        fc.constantFrom('date_from', 'date_to').map((key): QueryBreak => ({ kind: 'drop', key })),
        fc.constantFrom(...EXPORT_KEYS).map((key): QueryBreak => ({ kind: 'repeat', key })),
        fc
          .tuple(fc.constantFrom('date_from', 'date_to'), badDay)
          .map(([key, value]): QueryBreak => ({ kind: 'set', key, value })),
        fc
          .string({ maxLength: 10 })
          .filter((v) => v !== 'json' && v !== 'csv')
          .map((value): QueryBreak => ({ kind: 'set', key: 'format', value })),
        fc
          .string({ maxLength: 5 })
          .filter((v) => !/^[A-Z]{2}$/.test(v))
          .map((value): QueryBreak => ({ kind: 'set', key: 'country_code', value })),
        fc.tuple(unknownKey(EXPORT_KEYS), fc.string()).map(([key, value]): QueryBreak => ({ kind: 'set', key, value })),
        fc
          .tuple(fc.constantFrom('date_from', 'date_to'), fc.constantFrom('[]', '[0]', '[a]'))
          .map(([k, s]): QueryBreak => ({ kind: 'set', key: k + s, value: '2026-01-01' })),
        fc.integer({ min: 1, max: 5000 }).map((days): QueryBreak => ({ kind: 'inverted', days })),
        fc.integer({ min: 366, max: 5000 }).map((days): QueryBreak => ({ kind: 'too-long', days })),
        rawQuery.map((text): QueryBreak => ({ kind: 'raw', text: `date_from=${text}` })),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ from, span, format, country, breaks }) => {
    const day = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
    const q = new Map<string, string[]>([
      ['date_from', [day(from)]],
      ['date_to', [day(from + span)]],
    ]);
    if (format) q.set('format', [format]);
    if (country) q.set('country_code', [country]);
    return { query: buildQuery(q, breaks, (b) => day(b.kind === 'inverted' ? from - b.days : from + b.days)), breaks };
  });

/** GET /webhook-events: a valid query (or none) with 1-3 breaks, each refused on its own. */
export const badWebhookQuery = fc
  .record({
    base: fc.record(
      { transaction_id: fc.uuid(), limit: fc.integer({ min: 1, max: 100 }).map(String) },
      { requiredKeys: [] },
    ),
    breaks: fc.array(
      fc.oneof(
        fc
          .string({ unit: 'binary', maxLength: 40 })
          .filter((v) => !GUID_LIKE.test(v))
          .map((value): QueryBreak => ({ kind: 'set', key: 'transaction_id', value })),
        fc
          .oneof(
            fc.constantFrom('0', '101', '-1', '1.5', 'abc', '', '1e2', '0x10', '+5', '5 '),
            fc.integer({ min: 101 }).map(String),
            fc.string().filter((v) => !/^\d+$/.test(v)),
          )
          .map((value): QueryBreak => ({ kind: 'set', key: 'limit', value })),
        fc
          .tuple(unknownKey(['transaction_id', 'limit']), fc.string())
          .map(([key, value]): QueryBreak => ({ kind: 'set', key, value })),
        fc.constantFrom('transaction_id', 'limit').map((key): QueryBreak => ({ kind: 'repeat', key })),
        rawQuery.map((text): QueryBreak => ({ kind: 'raw', text: `transaction_id=${text}` })),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ base, breaks }) => ({
    query: buildQuery(new Map(Object.entries(base).map(([k, v]) => [k, [v]])), breaks, () => ''),
    breaks,
  }));

function buildQuery(
  q: Map<string, string[]>,
  breaks: QueryBreak[],
  dateTo: (b: Extract<QueryBreak, { days: number }>) => string,
): string {
  const raw: string[] = [];
  for (const b of breaks) {
    if (b.kind === 'drop') q.delete(b.key);
    else if (b.kind === 'repeat') {
      const v = q.get(b.key)?.[0] ?? (b.key === 'format' ? 'json' : b.key === 'limit' ? '5' : '2026-01-01');
      q.set(b.key, [v, v]);
    } else if (b.kind === 'set') q.set(b.key, [b.value]);
    else if (b.kind === 'raw') raw.push(b.text);
    else q.set('date_to', [dateTo(b)]);
  }
  const pairs = [...q].flatMap(([k, vs]) => vs.map((v) => `${encodeText(k)}=${encodeText(v)}`));
  return [...pairs, ...raw].join('&');
}

/** encodeURIComponent of any string: lone surrogates (which it refuses) become U+FFFD first. */
export function encodeText(s: string): string {
  return encodeURIComponent(s.replace(/[\ud800-\udfff]/gu, '\ufffd'));
}
