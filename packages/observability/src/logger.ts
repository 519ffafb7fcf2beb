import { pino, type Logger, type LoggerOptions } from 'pino';
import { isColorSupported, prettyFactory } from 'pino-pretty';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

// PII and secrets never reach the logs: numbers are masked upstream, these paths are censored here.
const REDACT = [
  'msisdn',
  'customer_msisdn',
  'beneficiary_msisdn',
  '*.msisdn',
  '*.customer_msisdn',
  '*.beneficiary_msisdn',
  'api_secret',
  '*.api_secret',
  'secret',
  '*.secret',
  'req.headers["x-service-signature"]',
  'req.headers.authorization',
  'req.headers["x-operator-signature"]',
];

/**
 * The format asked for by LOG_FORMAT: `json` (the default, one object per line, what log collectors
 * parse) or `pretty` (pino-pretty, for a person reading a terminal; `pnpm start` sets it). With
 * NODE_ENV=production a `pretty` is not refused but ignored: the logs stay JSON (`ignored` says why).
 * Any other value is an error, as for every other variable.
 */
export function logFormatFrom(env: NodeJS.ProcessEnv): { format: LogFormat; ignored: string | null } {
  const asked = (env.LOG_FORMAT ?? '').trim().toLowerCase() || 'json';
  if (asked !== 'json' && asked !== 'pretty') {
    throw new Error(`invalid environment: LOG_FORMAT must be json or pretty, not ${JSON.stringify(env.LOG_FORMAT)}`);
  }
  if (asked === 'pretty' && env.NODE_ENV === 'production') {
    return { format: 'json', ignored: 'LOG_FORMAT=pretty is ignored with NODE_ENV=production: logs stay JSON' };
  }
  return { format: asked, ignored: null };
}

/** Default of LOG_FLUSH_MS: how long a JSON line may wait in memory before it is written to stdout. */
export const DEFAULT_LOG_FLUSH_MS = 100;

/**
 * LOG_FLUSH_MS: JSON lines to stdout are gathered and written together, at the latest this many
 * milliseconds after the first of them (or once 4 KiB are waiting, or at exit); 0 writes each line as
 * it is logged, as pino does by default. An integer from 0 to 10 000, or an error.
 */
export function logFlushMsFrom(env: NodeJS.ProcessEnv): number {
  const raw = (env.LOG_FLUSH_MS ?? '').trim();
  if (raw === '') return DEFAULT_LOG_FLUSH_MS;
  const ms = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(ms <= 10_000))
    throw new Error(
      `invalid environment: LOG_FLUSH_MS must be an integer from 0 to 10000, not ${JSON.stringify(env.LOG_FLUSH_MS)}`,
    );
  return ms;
}

// A stuck reader of stdout must not stall payments: past this much waiting in memory, lines are dropped
// (as many again may wait in pino's destination, which drops past the same cap).
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const BATCH_BYTES = 4096;

interface LineSink {
  write(line: string): void;
  flushAtExit(): void;
}
const batchers = new Set<LineSink>();

/**
 * Stdout for JSON lines, gathered and handed to pino's destination (asynchronous writes, partial
 * writes and EAGAIN handled) one batch at a time: each line written on its own was a write through
 * libuv's thread pool on the path of every request, a seventh of the operator simulator's busy time
 * and 4-5% of the gateway's and the dispatcher's. A kill -9 loses the lines of the last `flushMs` at
 * most; at any other exit they are written synchronously, after what the destination still held.
 * Not sonic-boom's own `minLength`: a flush asked while a write is in flight does nothing, so the lines
 * gathered meanwhile wait below the threshold until the next line comes, however long that takes.
 * The threshold counts characters, not bytes: near enough for a batch size.
 *
 * No asynchronous write starts in the turn of an exit: a batch that reached 4 KiB is handed over on
 * the next turn (setImmediate), so a burst logged right before `process.exit()` is still here when the
 * exit handler writes it, synchronously, in order. An asynchronous write started in that turn would
 * be lost at the exit when the pipe cannot take it at once (EAGAIN, or part of it: its callback never
 * runs) and sonic-boom's flushSync skips a write in flight (sonic-boom issue #101).
 * What is left: a write handed to the thread pool in an earlier turn that the kernel has not taken
 * when the process exits (a reader that stopped reading: the write waits on EAGAIN) is lost, and the
 * lines written at the exit may overtake it; a kill -9 loses what is gathered.
 */
function batchedStdout(flushMs: number): LineSink {
  const out = pino.destination({ dest: 1, sync: false, maxLength: MAX_BUFFERED_BYTES });
  let waiting: string[] = [];
  let bytes = 0;
  let timer: NodeJS.Timeout | null = null;
  let nextTurn: NodeJS.Immediate | null = null;
  const take = (): string => {
    if (timer) clearTimeout(timer);
    if (nextTurn) clearImmediate(nextTurn);
    timer = null;
    nextTurn = null;
    const batch = waiting.join('');
    waiting = [];
    bytes = 0;
    return batch;
  };
  const handOver = (): void => {
    const batch = take();
    if (batch) out.write(batch);
  };
  const sink: LineSink = {
    write(line) {
      if (bytes >= MAX_BUFFERED_BYTES) return;
      waiting.push(line);
      bytes += line.length;
      // The deadline starts with the first line waiting: a quiet process keeps no timer running.
      if (bytes >= BATCH_BYTES) nextTurn ??= setImmediate(handOver);
      else timer ??= setTimeout(handOver, flushMs).unref();
    },
    // Whether pino's own exit handler ran before this one or runs after, flushSync writes what the
    // destination holds; what is gathered here follows it through a synchronous destination.
    flushAtExit() {
      out.flushSync();
      const batch = take();
      if (batch) pino.destination({ dest: 1, sync: true }).write(batch);
    },
  };
  if (batchers.size === 0)
    process.on('exit', () => {
      for (const b of batchers) b.flushAtExit();
    });
  batchers.add(sink);
  return sink;
}

/**
 * A pino logger named after the service. Without a destination it writes to stdout in the format of
 * LOG_FORMAT (JSON lines batched as LOG_FLUSH_MS says); with one (tests reading log lines) it writes
 * JSON unless `format` says otherwise, each line as logged.
 */
export function createLogger(
  service: string,
  level = 'info',
  destination?: NodeJS.WritableStream,
  format?: LogFormat,
): Logger {
  const options = { name: service, level, redact: { paths: REDACT, censor: '[redacted]' } };
  const fromEnv = format || destination ? null : logFormatFrom(process.env);
  const chosen = format ?? fromEnv?.format ?? 'json';
  const logger =
    chosen === 'pretty'
      ? pino(options, prettyStream(destination))
      : destination
        ? pino(options, destination)
        : stdoutLogger(options);
  if (fromEnv?.ignored) logger.warn(fromEnv.ignored);
  return logger;
}

function stdoutLogger(options: LoggerOptions): Logger {
  const flushMs = logFlushMsFrom(process.env);
  return flushMs === 0 || options.level === 'silent' ? pino(options) : pino(options, batchedStdout(flushMs));
}

/**
 * Each entry prettified as pino writes it, in this thread (no worker, no stream pipeline: nothing is
 * lost at exit), after redaction. One line per entry, so that the lines of several services interleaved
 * under `pnpm start` stay readable; colours when the terminal has them (FORCE_COLOR, as concurrently
 * sets for its children), none into a given stream.
 */
function prettyStream(destination?: NodeJS.WritableStream): { write(line: string): void } {
  const prettify = prettyFactory({
    colorize: destination ? false : isColorSupported,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name',
    // Only pino's `err` is an error; an `error` field (a webhook attempt's reason, often null) stays inline.
    errorLikeObjectKeys: ['err'],
  });
  const out = destination ?? process.stdout;
  return {
    write: (line) => {
      out.write(prettify(line));
    },
  };
}
