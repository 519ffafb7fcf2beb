import { Writable } from 'node:stream';
import { createLogger, logFormatFrom } from './logger.js';

function sink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  return { lines, stream: new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }) };
}

const SENSITIVE = { msisdn: '+2250707000001', body: { customer_msisdn: '+2250707000001' }, api_secret: 'sk_live', req: { headers: { 'x-service-signature': 'abc' } } };

describe('logger', () => {
  it('never writes customer numbers, secrets or signatures', () => {
    const { stream, lines } = sink();
    const logger = createLogger('test', 'info', stream);
    logger.info(SENSITIVE, 'hello');
    expect(lines.join('')).not.toMatch(/2250707000001|sk_live|"abc"/);
    expect(lines.join('')).toContain('[redacted]');
  });

  it('writes one JSON object per line into a given stream, whatever LOG_FORMAT says', () => {
    const before = process.env.LOG_FORMAT;
    process.env.LOG_FORMAT = 'pretty';
    try {
      const { stream, lines } = sink();
      createLogger('test', 'info', stream).info({ transaction_id: 't-1' }, 'job done');
      expect(JSON.parse(lines[0]!)).toMatchObject({ name: 'test', msg: 'job done', transaction_id: 't-1' });
    } finally {
      if (before === undefined) delete process.env.LOG_FORMAT;
      else process.env.LOG_FORMAT = before;
    }
  });

  it('pretty: one readable line per entry, redacted like JSON', () => {
    const { stream, lines } = sink();
    const logger = createLogger('test', 'info', stream, 'pretty');
    logger.info({ ...SENSITIVE, transaction_id: 't-1' }, 'job done');
    logger.warn({ err: new Error('boom') }, 'job failed');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: job done \{.*"transaction_id":"t-1".*\}\n$/);
    expect(lines[0]).not.toMatch(/2250707000001|sk_live|"abc"/);
    expect(lines[0]).toContain('[redacted]');
    expect(lines[1]).toMatch(/WARN: job failed/);
    expect(lines[1]).toContain('boom');
    expect(() => JSON.parse(lines[0]!)).toThrow();
  });
});

describe('LOG_FORMAT', () => {
  it('is json unless set to pretty', () => {
    expect(logFormatFrom({})).toEqual({ format: 'json', ignored: null });
    expect(logFormatFrom({ LOG_FORMAT: '' })).toEqual({ format: 'json', ignored: null });
    expect(logFormatFrom({ LOG_FORMAT: 'json' })).toEqual({ format: 'json', ignored: null });
    expect(logFormatFrom({ LOG_FORMAT: 'pretty', NODE_ENV: 'development' })).toEqual({ format: 'pretty', ignored: null });
    expect(logFormatFrom({ LOG_FORMAT: 'Pretty' })).toEqual({ format: 'pretty', ignored: null });
  });

  it('stays json in production: pretty is ignored, not refused', () => {
    const chosen = logFormatFrom({ LOG_FORMAT: 'pretty', NODE_ENV: 'production' });
    expect(chosen.format).toBe('json');
    expect(chosen.ignored).toMatch(/ignored with NODE_ENV=production/);
  });

  it('refuses any other value', () => {
    expect(() => logFormatFrom({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be json or pretty/);
  });
});
