/** Typed access to what the shared middlewares put on res.locals (Express types it as `any`). */
import type { Response } from 'express';

export function nonceOf(res: Response): string {
  return res.locals.cspNonce as string;
}

export function requestIdOf(res: Response): string {
  return res.locals.requestId as string;
}
