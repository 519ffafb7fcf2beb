import type { Logger } from './logger.js';

/**
 * The end of every main.ts: on SIGTERM or SIGINT (once, a second signal is ignored while stopping),
 * stop the service, then exit 0; a stop that fails is logged with its error before exit 1, so an
 * operator reading the logs of a restart loop learns why.
 */
export function runUntilSignal(service: { stop(): Promise<void> }, logger: Logger): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    service.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
