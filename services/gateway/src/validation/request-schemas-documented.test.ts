import { openApiDocument } from '@mm/openapi';
import { OpenApiConformance } from '@mm/testing';
import { cashinSchema } from './cashin-schema.js';
import { cashoutSchema } from './cashout-schema.js';
import { refundSchema } from './refund-schema.js';
import { validate } from './validate.js';
import type Joi from 'joi';

/**
 * The request schemas of the OpenAPI document and the joi schemas the gateway validates with must
 * agree on every body: one the document allows and the gateway refuses (or the reverse) is a lie to
 * every client generated from the document. Semantic rules beyond the schema (the amount range, the
 * number's country) are the gateway's alone and are not compared here.
 */
const oas = new OpenApiConformance(openApiDocument);
const acceptedByJoi = (schema: Joi.Schema, body: unknown) => {
  try {
    validate(schema, body);
    return true;
  } catch {
    return false;
  }
};
const acceptedByDocument = (path: string, body: unknown) => oas.checkRequestBody('POST', path, body).length === 0;

const cashin = { merchant_order_id: 'order-1', amount: 5000, customer_msisdn: '+2250707000001' };
const cashout = { merchant_order_id: 'order-1', amount: 5000, beneficiary_msisdn: '+2250707000001' };
const refund = { transaction_id: '6f1c2a9e-4b7d-4c3a-8e6f-0b1d2c3e4f50' };
const UNSAFE = 2 ** 53;

const CASES: [string, Joi.Schema, string, Record<string, unknown>][] = [
  ...(
    [
      {},
      { motif: 'x'.repeat(255) },
      { motif: 'x'.repeat(256) },
      { motif: '' },
      { currency: 'XOF' },
      { currency: 'xof' },
      { country_code: 'CI' },
      { country_code: 'CIV' },
      { amount: '5000' },
      { amount: 50.5 },
      { amount: 0 },
      { amount: -1 },
      { amount: UNSAFE },
      { customer_msisdn: '' },
      { customer_msisdn: 'x'.repeat(21) },
      { merchant_order_id: '' },
      { merchant_order_id: 'has space' },
      { merchant_order_id: 'x'.repeat(101) },
      { notify_url: 'https://shop.example/hooks' },
      { notify_url: 'ftp://shop.example' },
      { notify_url: 'not a url' },
      { return_url: 'http://shop.example/back' },
      { metadata: { a: 'x', b: 1, c: true } },
      { metadata: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i])) },
      { metadata: { a: '' } },
      { metadata: { a: 'x'.repeat(501) } },
      { metadata: { a: null } },
      { metadata: { a: { nested: 1 } } },
      { metadata: { a: UNSAFE } },
      { unknown_field: 1 },
    ] as Record<string, unknown>[]
  ).map((o): [string, Joi.Schema, string, Record<string, unknown>] => [
    'cash-in',
    cashinSchema,
    '/payments/cashin',
    { ...cashin, ...o },
  ]),
  ...(
    [
      {},
      { reason: 'salaire' },
      { reason: '' },
      { reason: 'x'.repeat(256) },
      { amount: UNSAFE },
      { beneficiary_msisdn: 12 },
      { currency: 'XAF' },
      { notify_url: 'https://x.example' },
      { motif: 'not a cash-out field' },
    ] as Record<string, unknown>[]
  ).map((o): [string, Joi.Schema, string, Record<string, unknown>] => [
    'cash-out',
    cashoutSchema,
    '/payments/cashout',
    { ...cashout, ...o },
  ]),
  ...(
    [
      {},
      { amount: 100 },
      { amount: 0 },
      { amount: UNSAFE },
      { reason: 'returned' },
      { reason: '' },
      { transaction_id: 'not-a-uuid' },
      { transaction_id: undefined },
      { extra: true },
    ] as Record<string, unknown>[]
  ).map((o): [string, Joi.Schema, string, Record<string, unknown>] => [
    'refund',
    refundSchema,
    '/refunds',
    JSON.parse(JSON.stringify({ ...refund, ...o })) as Record<string, unknown>,
  ]),
];

describe('request bodies: the OpenAPI document and the gateway agree', () => {
  it.each(CASES)('%s %j', (_what, schema, path, body) => {
    expect({ document: acceptedByDocument(path, body) }).toEqual({ document: acceptedByJoi(schema, body) });
  });

  it('the table holds bodies both accept and bodies both refuse', () => {
    const verdicts = CASES.map(([, schema, , body]) => acceptedByJoi(schema, body));
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(10);
    expect(verdicts.filter((v) => !v).length).toBeGreaterThan(10);
  });
});
