import { pino, type Logger } from 'pino';
import { isColorSupported, prettyFactory } from 'pino-pretty';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

// PII and secrets never reach the logs: numbers are masked upstream, these paths are censored here.
const REDACT = [
  'msisdn', 'customer_msisdn', 'beneficiary_msisdn', '*.msisdn', '*.customer_msisdn', '*.beneficiary_msisdn',
  'api_secret', '*.api_secret', 'secret', '*.secret',
  'req.headers["x-service-signature"]', 'req.headers.authorization', 'req.headers["x-operator-signature"]',
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

/**
 * A pino logger named after the service. Without a destination it writes to stdout in the format of
 * LOG_FORMAT; with one (tests reading log lines) it writes JSON unless `format` says otherwise.
 */
export function createLogger(service: string, level = 'info', destination?: NodeJS.WritableStream, format?: LogFormat): Logger {
  const options = { name: service, level, redact: { paths: REDACT, censor: '[redacted]' } };
  const fromEnv = format || destination ? null : logFormatFrom(process.env);
  const chosen = format ?? fromEnv?.format ?? 'json';
  const logger = chosen === 'pretty' ? pino(options, prettyStream(destination)) : destination ? pino(options, destination) : pino(options);
  if (fromEnv?.ignored) logger.warn(fromEnv.ignored);
  return logger;
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
  return { write: (line) => { out.write(prettify(line)); } };
}
