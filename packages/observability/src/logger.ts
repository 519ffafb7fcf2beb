import { pino, type Logger } from 'pino';

export type { Logger };

// PII and secrets never reach the logs: numbers are masked upstream, these paths are censored here.
const REDACT = [
  'msisdn', 'customer_msisdn', 'beneficiary_msisdn', '*.msisdn', '*.customer_msisdn', '*.beneficiary_msisdn',
  'api_secret', '*.api_secret', 'secret', '*.secret',
  'req.headers["x-service-signature"]', 'req.headers.authorization', 'req.headers["x-operator-signature"]',
];

export function createLogger(service: string, level = 'info', destination?: NodeJS.WritableStream): Logger {
  const options = { name: service, level, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
