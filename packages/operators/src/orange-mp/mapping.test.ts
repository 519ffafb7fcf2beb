import { OperatorRefusedError } from '../operator-adapter.js';
import {
  isMpNotFound,
  mpDataOf,
  resultFromStatusResponse,
  resultOfMpData,
  subscriberMsisdnOf,
  type MpData,
} from './mapping.js';

describe('Orange mp status mapping table', () => {
  const d = (over: Partial<MpData> & { message?: string | null }) => ({
    payToken: 'MP1',
    status: 'PENDING' as const,
    ...over,
  });
  const rows: [string, ReturnType<typeof d>, Record<string, unknown>][] = [
    [
      'INITIATED (token not paid yet)',
      d({ status: 'INITIATED' }),
      { providerState: 'PENDING', providerTxnStatus: 'INITIATED' },
    ],
    [
      'PENDING (waiting for the PIN)',
      d({ status: 'PENDING' }),
      { providerState: 'PENDING', providerTxnStatus: 'PENDING' },
    ],
    [
      'SUCCESSFULL (sic)',
      d({ status: 'SUCCESSFULL', txnid: 'MP9' }),
      { providerState: 'OK', providerTxnStatus: '200', providerTxId: 'MP9' },
    ],
    [
      'SUCCESS (the web spelling)',
      d({ status: 'SUCCESS', txnid: 'MP9' }),
      { providerState: 'OK', providerTxnStatus: '200' },
    ],
    [
      'FAILED inittxnstatus 60019 (pay refused, 417)',
      d({ status: 'FAILED', inittxnstatus: '60019', inittxnmessage: 'Le solde du compte du payeur est insuffisant' }),
      {
        providerState: 'canceled',
        providerTxnStatus: '60019',
        failureCode: 'INSUFFICIENT_BALANCE',
        failureReason: 'Le solde du compte du payeur est insuffisant',
      },
    ],
    [
      'FAILED confirmtxnstatus 00017 (wrong PIN)',
      d({
        status: 'FAILED',
        inittxnstatus: '200',
        confirmtxnstatus: '00017',
        confirmtxnmessage: 'Code secret incorrect',
      }),
      { providerState: 'canceled', providerTxnStatus: '00017', failureCode: 'INVALID_SECRET_CODE' },
    ],
    [
      'FAILED inittxnstatus 100004 (threshold)',
      d({ status: 'FAILED', inittxnstatus: '100004' }),
      { providerState: 'canceled', providerTxnStatus: '100004', failureCode: 'THRESHOLD_REACHED' },
    ],
    [
      'FAILED inittxnstatus 100090 (threshold, upper bound)',
      d({ status: 'FAILED', inittxnstatus: '100090' }),
      { providerState: 'canceled', providerTxnStatus: '100090', failureCode: 'THRESHOLD_REACHED' },
    ],
    [
      'FAILED with the code only in the envelope message',
      d({ status: 'FAILED', message: '60019 :: Utilisateur bloque' }),
      {
        providerState: 'canceled',
        providerTxnStatus: '60019',
        failureCode: 'INSUFFICIENT_BALANCE',
        failureReason: 'Utilisateur bloque',
      },
    ],
    [
      'FAILED without a cause (duplicate number+amount window)',
      d({ status: 'FAILED', inittxnstatus: '200', message: 'Transaction retrieved successfully' }),
      { providerState: 'canceled', providerTxnStatus: 'FAILED', failureCode: 'UNKNOWN', failureReason: null },
    ],
    [
      'EXPIRED (pay token lifetime over)',
      d({ status: 'EXPIRED' }),
      { providerState: 'canceled', providerTxnStatus: 'EXPIRED', failureCode: 'CUSTOMER_DID_NOT_VALIDATE' },
    ],
    [
      'CANCELLED (by the customer)',
      d({ status: 'CANCELLED' }),
      { providerState: 'canceled', providerTxnStatus: 'CANCELLED', failureCode: 'CUSTOMER_DID_NOT_VALIDATE' },
    ],
  ];
  it.each(rows)('%s', (_row, data, expected) => {
    expect(resultOfMpData(data)).toMatchObject(expected);
  });
});

describe('Orange mp wire answers', () => {
  it('reads data out of the {message, data} envelope; anything else is outside the protocol', () => {
    expect(mpDataOf({ message: 'ok', data: { payToken: 'MP1', status: 'PENDING', txnid: null } })).toMatchObject({
      payToken: 'MP1',
      message: 'ok',
    });
    expect(mpDataOf({ message: 'ok', data: { payToken: 'MP1', status: 'WHATEVER' } })).toBeNull();
    expect(resultFromStatusResponse(200, { data: null })).toBeNull();
  });
  it("Orange's own 404 (its {message, data} envelope with no data) is found: false", () => {
    expect(resultFromStatusResponse(404, { message: 'Transaction introuvable', data: null })).toMatchObject({
      found: false,
      providerState: 'PENDING',
    });
    expect(isMpNotFound(404, { message: 'Transaction introuvable', data: null })).toBe(true);
  });
  it.each([
    [
      "a proxy's HTML page",
      '<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>',
    ],
    ['an empty body', ''],
    ['no body at all', undefined],
    [
      "the WSO2 gateway's fault for a path it does not route",
      {
        fault: {
          code: 404,
          message: 'No matching resource found for given API Request',
          description: 'The requested resource is not available.',
        },
      },
    ],
    ["the envelope with the gateway's fault beside it", { message: 'Not Found', data: null, fault: { code: 404 } }],
    [
      'the envelope carrying payment data (not a not-found)',
      { message: 'Transaction introuvable', data: { payToken: 'MP1', status: 'PENDING' } },
    ],
    ['the envelope without a message', { data: null }],
    ['the envelope with an empty message', { message: '', data: null }],
    ['another JSON shape', { error: 'not_found' }],
  ])("a 404 with %s is not Orange's not-found: outside the protocol (an unknown outcome)", (_what, body) => {
    expect(isMpNotFound(404, body)).toBe(false);
    expect(resultFromStatusResponse(404, body)).toBeNull();
  });
  it('the envelope with no data under another status is not a not-found', () => {
    expect(isMpNotFound(200, { message: 'Transaction introuvable', data: null })).toBe(false);
    expect(resultFromStatusResponse(200, { message: 'Transaction introuvable', data: null })).toBeNull();
  });
  it.each([
    ['+237699000001', '699000001'],
    ['237699000001', '699000001'],
    ['699000001', '699000001'],
  ])('subscriberMsisdn of %s is %s', (msisdn, expected) => {
    expect(subscriberMsisdnOf(msisdn)).toBe(expected);
  });
  it('a non-Cameroonian number is refused before calling Orange', () => {
    expect(() => subscriberMsisdnOf('+2250700000001')).toThrow(OperatorRefusedError);
  });
});
