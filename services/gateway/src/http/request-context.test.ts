import type { Response } from 'express';
import { merchantContext, setMerchantContext } from './request-context.js';

const response = () => ({ locals: {} }) as Response;

describe('the merchant of a request', () => {
  it('is the one authenticate() set', () => {
    const res = response();
    setMerchantContext(res, { merchantId: 'm-1' });
    expect(merchantContext(res)).toEqual({ merchantId: 'm-1' });
  });

  it('is refused outside authenticate(), rather than read as undefined', () => {
    expect(() => merchantContext(response())).toThrow(/outside authenticate/);
  });
});
