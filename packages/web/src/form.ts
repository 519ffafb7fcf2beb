import type { Request } from 'express';

/**
 * One text field of the urlencoded form (express.urlencoded, extended: false). A field sent several
 * times arrives as an array: only a crafted form does that, so it reads as empty like a missing one.
 */
export function formField(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}
