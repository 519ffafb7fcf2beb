import type { Logger } from '@mm/observability';

/** Event-style log sink; tests pass their own to wait on events such as a callback given up. */
export type Log = (event: string, fields?: Record<string, unknown>, level?: 'info' | 'warn') => void;

export function logTo(logger: Logger): Log {
  return (event, fields = {}, level = 'info') => logger[level](fields, event);
}
