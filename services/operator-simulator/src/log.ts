/** Structured log line writer; tests pass their own to observe events such as a callback given up. */
export type Log = (event: string, fields?: Record<string, unknown>) => void;

export const jsonLineLog: Log = (event, fields = {}) => {
  console.log(JSON.stringify({ time: new Date().toISOString(), service: 'operator-simulator', event, ...fields }));
};
