/**
 * One uploaded file per form (multipart/form-data), read into memory by multer, then the form's CSRF
 * token checked: the global check (csrf.ts) cannot read a multipart body and leaves these POSTs to the
 * route, which must put `fileUpload(...)` after its permission check and before its handler. The route's
 * path must also be listed in csrf.ts (MULTIPART_POSTS), or every upload is refused there.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { csrfAfterUpload, PageError } from '@mm/web';

export interface UploadLimits {
  /** The form field of the file. */
  field: string;
  maxBytes: number;
}

/** The uploaded file of the request (after fileUpload), or null when none was sent. */
export function uploadedFile(req: Request): { name: string; bytes: Buffer } | null {
  const file = req.file;
  if (!file) return null;
  return { name: file.originalname, bytes: file.buffer };
}

function pageErrorOf(err: unknown, limits: UploadLimits): unknown {
  if (!(err instanceof multer.MulterError)) return err;
  switch (err.code) {
    case 'LIMIT_FILE_SIZE':
      return new PageError(
        413,
        `The file is larger than ${Math.round(limits.maxBytes / 1_048_576)} MB: nothing was read.`,
      );
    case 'LIMIT_UNEXPECTED_FILE':
    case 'LIMIT_FILE_COUNT':
      return new PageError(400, 'Send one file, with the form of this page.');
    default:
      return new PageError(400, 'The form could not be read.');
  }
}

/** multer (memory, one file of at most `maxBytes`, a few short text fields), then the CSRF token check. */
export function fileUpload(limits: UploadLimits): RequestHandler[] {
  const parse = multer({
    storage: multer.memoryStorage(),
    // Text fields are the token and a few choices: short. Parts bound the fields and files together.
    limits: { fileSize: limits.maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 20 },
  }).single(limits.field);
  const read: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (err?: unknown) => next(err === undefined || err === null ? undefined : pageErrorOf(err, limits)));
  };
  return [read, csrfAfterUpload];
}
