import { spawn, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@mm/testing';
import { createLogger, DEFAULT_LOG_FLUSH_MS, logFlushMsFrom, logFormatFrom } from './logger.js';

function sink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    stream: new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  };
}

const SENSITIVE = {
  msisdn: '+2250707000001',
  body: { customer_msisdn: '+2250707000001' },
  api_secret: 'sk_live',
  req: { headers: { 'x-service-signature': 'abc' } },
};

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
    expect(logFormatFrom({ LOG_FORMAT: 'pretty', NODE_ENV: 'development' })).toEqual({
      format: 'pretty',
      ignored: null,
    });
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

describe('stdout (JSON lines, LOG_FLUSH_MS)', () => {
  const LOGGER = fileURLToPath(new URL('./logger.ts', import.meta.url));
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  /** A process of its own logging to its real stdout (a pipe here, as under a container runtime); each read of the pipe is one chunk. */
  function logging(script: string, env: Record<string, string>): { chunks: string[]; exited: Promise<number | null> } {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { createLogger } from ${JSON.stringify(LOGGER)}; const log = createLogger('t', 'info'); ${script}`,
      ],
      {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    const chunks: string[] = [];
    child.stdout!.on('data', (c: Buffer) => chunks.push(c.toString()));
    return { chunks, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  }
  const lines = (chunks: string[]): number[] =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { i: number }).i);

  it('gathers the lines of a burst and writes them together, in order, within LOG_FLUSH_MS', async () => {
    const run = logging('for (let i = 0; i < 20; i++) log.info({ i }, "line"); setTimeout(() => {}, 30_000);', {
      LOG_FLUSH_MS: '150',
    });
    await waitFor(() => lines(run.chunks).length === 20, { what: 'the 20 lines', timeoutMs: 10_000 });
    expect(lines(run.chunks)).toEqual([...Array(20).keys()]);
    expect(run.chunks).toHaveLength(1);
  });

  it('writes what is still gathered when the process exits', async () => {
    const run = logging('for (let i = 0; i < 5; i++) log.info({ i }, "line"); process.exit(3);', {});
    expect(await run.exited).toBe(3);
    expect(lines(run.chunks)).toEqual([0, 1, 2, 3, 4]);
  });

  it('hands 4 KiB over at once, without waiting for the deadline', async () => {
    const run = logging(
      'for (let i = 0; i < 200; i++) log.info({ i, pad: "x".repeat(100) }, "line"); setTimeout(() => {}, 30_000);',
      { LOG_FLUSH_MS: '10000' },
    );
    await waitFor(() => lines(run.chunks).length >= 150, {
      what: 'the lines past the first 4 KiB batches',
      timeoutMs: 5_000,
    });
    expect(lines(run.chunks)).toEqual([...Array(lines(run.chunks).length).keys()]);
  });

  /**
   * A child as in `logging`, whose stdout's reader is behind: the test reads nothing (beyond what its
   * stream reads ahead) until the child says `exiting` on stderr, then reads after 300 ms. In the child, `stdoutFull()` fills the pipe with
   * empty lines until the kernel takes no more (twice: the second time once the test's side has
   * stopped reading ahead), so that a write started asynchronously there gets EAGAIN; `burst(from, count)`
   * logs lines of about 150 bytes.
   */
  function loggingToASlowReader(script: string): { chunks: string[]; exited: Promise<number | null> } {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `
      import { readSync, writeSync } from 'node:fs';
      import { createLogger } from ${JSON.stringify(LOGGER)};
      process.stdout; // as in a service: a pipe opened as process.stdout is non-blocking, a full one answers EAGAIN
      const log = createLogger('t', 'info');
      const burst = (from, count) => { for (let i = from; i < from + count; i++) log.info({ i, pad: 'x'.repeat(100) }, 'line'); };
      const fill = () => { const nl = Buffer.alloc(4096, 10); for (;;) { try { writeSync(1, nl); } catch (e) { if (e.code === 'EAGAIN') return; throw e; } } };
      const stdoutFull = () => { fill(); writeSync(2, 'filled\\n'); readSync(0, Buffer.alloc(1)); fill(); };
      const exiting = () => writeSync(2, 'exiting\\n');
      ${script}`,
      ],
      { env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    children.push(child);
    const chunks: string[] = [];
    // Read as soon as `exiting`, not before: a stream nobody listens to is drained into nothing when the child exits.
    const stdout = child.stdout!.on('data', (d: Buffer) => chunks.push(d.toString())).pause();
    child.stderr!.on('data', (c: Buffer) => {
      for (const said of c.toString().split('\n').filter(Boolean)) {
        if (said === 'filled') {
          // The stream stops reading from the pipe once it holds its high-water mark unread.
          void waitFor(() => stdout.readableLength >= stdout.readableHighWaterMark, {
            what: 'the test to stop reading ahead',
          }).then(() => child.stdin!.write('k'));
        } else if (said === 'exiting') {
          setTimeout(() => stdout.resume(), 300);
        } else {
          process.stderr.write(`${said}\n`);
        }
      }
    });
    return { chunks, exited: new Promise((resolve) => child.once('close', (code) => resolve(code))) };
  }

  it('at exit, writes every line of a burst logged right before process.exit(), in order, into a full pipe', async () => {
    const run = loggingToASlowReader('stdoutFull(); burst(0, 2000); exiting(); process.exit(0);');
    expect(await run.exited).toBe(0);
    expect(lines(run.chunks)).toEqual([...Array(2000).keys()]);
  });

  it('at a natural exit, writes the last lines into a pipe that filled up meanwhile', async () => {
    // Several 4 KiB of lines, then, once they are handed over, lines under the threshold that still wait
    // for their deadline when the event loop empties.
    const run = loggingToASlowReader(
      'burst(0, 150); setImmediate(() => burst(150, 10)); process.once("beforeExit", () => { stdoutFull(); exiting(); });',
    );
    expect(await run.exited).toBe(0);
    expect(lines(run.chunks)).toEqual([...Array(160).keys()]);
  });

  it('at an exit while an earlier batch is being written, writes the rest after it, in order', async () => {
    // The logger's own hand-over of the first burst was scheduled before this callback, so it runs first.
    const run = loggingToASlowReader(
      'burst(0, 150); setImmediate(() => { burst(150, 2000); exiting(); process.exit(0); });',
    );
    expect(await run.exited).toBe(0);
    expect(lines(run.chunks)).toEqual([...Array(2150).keys()]);
  });

  it('keeps at most 16 MiB of a burst logged in one turn, the first lines, and drops the rest', async () => {
    const run = logging(
      'for (let i = 0; i < 18_000; i++) log.info({ i, pad: "x".repeat(1000) }, "line"); process.exit(0);',
      {},
    );
    expect(await run.exited).toBe(0);
    const kept = lines(run.chunks);
    expect(kept).toEqual([...Array(kept.length).keys()]);
    expect(kept.length).toBeLessThan(18_000);
    expect(run.chunks.join('').length).toBeGreaterThanOrEqual(16 * 1024 * 1024);
  });

  it('LOG_FLUSH_MS=0: each line written as it is logged, without waiting for the event loop', async () => {
    // The child logs, then blocks its event loop until it reads from stdin, which the test writes only
    // once the line arrived: a line waiting for a batch's timer would never come, and the child never exit.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { readSync } from 'node:fs'; import { createLogger } from ${JSON.stringify(LOGGER)};
       createLogger('t', 'info').info({ i: 0 }, 'line'); readSync(0, Buffer.alloc(1)); process.exit(0);`,
      ],
      {
        env: { PATH: process.env.PATH ?? '', LOG_FLUSH_MS: '0' },
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    const chunks: string[] = [];
    child.stdout!.on('data', (c: Buffer) => {
      chunks.push(c.toString());
      child.stdin!.write('go');
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await waitFor(() => lines(chunks).length === 1, { what: 'the line while the child blocks', timeoutMs: 10_000 });
    expect(await exited).toBe(0);
    expect(lines(chunks)).toEqual([0]);
  });
});

describe('LOG_FLUSH_MS', () => {
  it('is an integer of milliseconds from 0 to 10000, 100 by default', () => {
    expect(logFlushMsFrom({})).toBe(DEFAULT_LOG_FLUSH_MS);
    expect(DEFAULT_LOG_FLUSH_MS).toBe(100);
    expect(logFlushMsFrom({ LOG_FLUSH_MS: ' 0 ' })).toBe(0);
    expect(logFlushMsFrom({ LOG_FLUSH_MS: '250' })).toBe(250);
    for (const bad of ['-1', '1.5', 'soon', '10001']) {
      expect(() => logFlushMsFrom({ LOG_FLUSH_MS: bad })).toThrow(
        `invalid environment: LOG_FLUSH_MS must be an integer from 0 to 10000, not "${bad}"`,
      );
    }
  });
});
