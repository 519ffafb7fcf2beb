import { Writable } from 'node:stream';
import { createLogger } from './logger.js';

describe('logger', () => {
  it('never writes customer numbers, secrets or signatures', () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const logger = createLogger('test', 'info', sink);
    logger.info({ msisdn: '+2250707000001', body: { customer_msisdn: '+2250707000001' }, api_secret: 'sk_live', req: { headers: { 'x-service-signature': 'abc' } } }, 'hello');
    expect(lines.join('')).not.toMatch(/2250707000001|sk_live|"abc"/);
    expect(lines.join('')).toContain('[redacted]');
  });
});
