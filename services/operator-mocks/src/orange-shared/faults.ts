import type { RequestHandler } from 'express';
import type { TimerSet } from '@mm/fake-operator';

/** What the next call of an operation gets instead of (or before) its normal answer. */
export type OrangeFault =
  | { kind: 'status'; status: number; body?: unknown; contentType?: string }
  /** Never answers (until hangMs, then the socket is destroyed): a timeout, nothing known. */
  | { kind: 'hang' }
  /** Answers normally after ms: a slow operator. */
  | { kind: 'slow'; ms: number }
  /** Does the work, then drops the connection: the operation happened, the caller never learns it. */
  | { kind: 'drop-after' };

/** Per operation, a queue of faults for its next calls. */
export class OrangeFaults {
  private readonly queues = new Map<string, OrangeFault[]>();

  add(operation: string, fault: OrangeFault, times = 1): void {
    const queue = this.queues.get(operation) ?? [];
    for (let i = 0; i < times; i += 1) queue.push(fault);
    this.queues.set(operation, queue);
  }

  take(operation: string): OrangeFault | undefined {
    return this.queues.get(operation)?.shift();
  }

  clear(): void {
    this.queues.clear();
  }

  /**
   * Middleware applying the next fault of `operation`. drop-after lets the route run and destroys the
   * socket instead of sending its answer.
   */
  middleware(operation: string, timers: TimerSet, hangMs: number): RequestHandler {
    return (req, res, next) => {
      const fault = this.take(operation);
      if (!fault) return next();
      switch (fault.kind) {
        case 'status':
          if (fault.contentType)
            res
              .status(fault.status)
              .type(fault.contentType)
              .send(String(fault.body ?? ''));
          else res.status(fault.status).json(fault.body ?? {});
          return;
        case 'hang':
          timers.after(hangMs, () => req.socket.destroy());
          return;
        case 'slow':
          timers.after(fault.ms, () => next());
          return;
        case 'drop-after':
          res.json = () => {
            req.socket.destroy();
            return res;
          };
          return next();
      }
    };
  }
}

/** WSO2's gateway timeout, as Orange Cameroon's gateway answers it (karibu-cap's TS library test). */
export const WSO2_SEND_TIMEOUT: OrangeFault = {
  kind: 'status',
  status: 500,
  contentType: 'application/xml',
  body: '<am:fault xmlns:am="http://wso2.org/apimanager"><am:code>101504</am:code><am:type>Status report</am:type><am:message>Runtime Error</am:message><am:description>Send timeout</am:description></am:fault>',
};

/**
 * A 404 that is not Orange's: the HTML page of a proxy or load balancer in front of the API (a route it lost,
 * a backend it cannot reach). It says nothing about the payment (isMpNotFound in @mm/operators).
 */
export const PROXY_NOT_FOUND_PAGE: OrangeFault = {
  kind: 'status',
  status: 404,
  contentType: 'text/html',
  body: '<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>',
};
