import {
  cancelUrlOf,
  isDuplicateOrder,
  resultFromStatusResponse,
  resultOfWebpayStatus,
  type WebpayStatusBody,
} from './mapping.js';
import { tokenFromResponse } from '../orange-shared/http.js';

describe('OM WebPay status mapping table', () => {
  const rows: [string, WebpayStatusBody, Record<string, unknown>][] = [
    [
      'INITIATED (not yet confirmed)',
      { status: 'INITIATED' },
      { providerState: 'PENDING', providerTxnStatus: 'INITIATED' },
    ],
    ['PENDING (processing)', { status: 'PENDING' }, { providerState: 'PENDING', providerTxnStatus: 'PENDING' }],
    [
      'SUCCESS',
      { status: 'SUCCESS', txnid: 'MP1' },
      { providerState: 'OK', providerTxnStatus: '200', providerTxId: 'MP1' },
    ],
    [
      'FAILED with 60019',
      { status: 'FAILED', message: '60019 :: Solde insuffisant' },
      {
        providerState: 'canceled',
        providerTxnStatus: '60019',
        failureCode: 'INSUFFICIENT_BALANCE',
        failureReason: 'Solde insuffisant',
      },
    ],
    [
      'FAILED with 00017',
      { status: 'FAILED', message: '00017 :: Code secret incorrect' },
      { providerState: 'canceled', providerTxnStatus: '00017', failureCode: 'INVALID_SECRET_CODE' },
    ],
    [
      'FAILED with 100004',
      { status: 'FAILED', message: '100004 :: Plafond atteint' },
      { providerState: 'canceled', providerTxnStatus: '100004', failureCode: 'THRESHOLD_REACHED' },
    ],
    [
      'FAILED with another Orange code',
      { status: 'FAILED', message: '12345 :: Autre' },
      { providerState: 'canceled', providerTxnStatus: '12345', failureCode: 'UNKNOWN' },
    ],
    [
      'FAILED without a cause',
      { status: 'FAILED' },
      { providerState: 'canceled', providerTxnStatus: 'FAILED', failureCode: 'UNKNOWN', failureReason: null },
    ],
    [
      'EXPIRED (confirmed too late)',
      { status: 'EXPIRED' },
      { providerState: 'canceled', providerTxnStatus: 'EXPIRED', failureCode: 'CUSTOMER_DID_NOT_VALIDATE' },
    ],
  ];
  it.each(rows)('%s', (_row, body, expected) => {
    expect(resultOfWebpayStatus(body)).toMatchObject(expected);
  });
});

describe('OM WebPay wire answers', () => {
  it('a 200 with an unknown status is outside the protocol', () => {
    expect(resultFromStatusResponse(200, { status: 'DONE', order_id: 'x' })).toBeNull();
  });
  it('a 404 in Orange error shape is found: false; a 404 of anything else is not the protocol', () => {
    expect(resultFromStatusResponse(404, { code: 404, message: 'Not Found', description: 'x' })).toMatchObject({
      found: false,
      providerState: 'PENDING',
    });
    expect(resultFromStatusResponse(404, '<html>')).toBeNull();
  });
  it('recognises the duplicate order_id refusal, and nothing else', () => {
    expect(
      isDuplicateOrder(400, { code: 400, message: 'Bad Request', description: 'order_id tx1 already exists' }),
    ).toBe(true);
    expect(isDuplicateOrder(400, { code: 400, message: 'Bad Request', description: 'Invalid merchant_key' })).toBe(
      false,
    );
    expect(isDuplicateOrder(500, { code: 1, message: 'order_id already exists' })).toBe(false);
  });
  it('cancel_url is return_url with a marker, keeping its query', () => {
    expect(cancelUrlOf('https://pay.test/p/1?lang=fr')).toBe('https://pay.test/p/1?lang=fr&orange=cancel');
  });
  it.each([
    ['a string', '7776000', 7_776_000],
    ['a number', 300, 300],
  ])('expires_in as %s', (_w, expiresIn, seconds) => {
    expect(tokenFromResponse(200, { token_type: 'Bearer', access_token: 't', expires_in: expiresIn })).toEqual({
      token: 't',
      expiresInS: seconds,
    });
  });
  it('a token answer without access_token is not a token', () => {
    expect(tokenFromResponse(200, { expires_in: '1' })).toBeNull();
  });
});
