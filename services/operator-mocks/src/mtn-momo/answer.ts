import type { Request, Response } from 'express';

/** What a route answers; routes compute it, the fault layer decides whether and when it is sent. */
export interface Answer {
  status: number;
  body?: unknown;
}

/** MTN's error body (M3): `{code, message}`. */
export const mtnError = (status: number, code: string, message: string): Answer => ({
  status,
  body: { code, message },
});

export function sendAnswer(res: Response, answer: Answer): void {
  if (res.headersSent || res.writableEnded) return;
  res.status(answer.status);
  if (answer.body === undefined) res.end();
  else res.json(answer.body);
}

export function header(req: Request, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
