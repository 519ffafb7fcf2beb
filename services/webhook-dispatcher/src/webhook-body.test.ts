import { webhookBody } from './webhook-body.js';

describe('webhook body', () => {
  it('writes the payload in the interface field order, other fields after, values untouched', () => {
    const body = webhookBody({ timestamp: 't', amount: 5, status: 'FAILED', event: 'e', failure_code: null, zz_extra: 1, event_id: 'id' });
    expect(body).toBe('{"event":"e","event_id":"id","status":"FAILED","amount":5,"failure_code":null,"timestamp":"t","zz_extra":1}');
  });
});
