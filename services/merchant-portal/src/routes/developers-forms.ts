/**
 * What every Developers change shares: its form read with Joi, the user's audit context, and the fresh
 * authenticator code STEP_UP_PERMISSIONS asks for (keys:manage, webhooks:manage).
 */
import type { Request, Response } from 'express';
import Joi from 'joi';
import type { AuditContext } from '@mm/collections';
import { PageError } from '@mm/web';
import { currentUser } from '../auth/guard.js';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { developersText } from '../i18n/developers.js';
import { confirmStepUp, type StepUpDeps } from '../use-cases/step-up.js';

/** A form field that was not right: the page is shown again (400) with this message, nothing changed. */
export class FormRefusal extends Error {
  constructor(
    readonly status: 400 | 401 | 409,
    message: string,
  ) {
    super(message);
  }
}

const code = Joi.string()
  .trim()
  .pattern(/^\d{6}$/)
  .required();

/** Reads `schema` (which gets the `code` field added) or throws a FormRefusal with `message`. */
export function readForm<T extends object>(
  req: Request,
  schema: Joi.ObjectSchema<T>,
  messages: { code: string; other: string },
): T & { code: string } {
  const { value, error } = (schema as Joi.ObjectSchema)
    .keys({ code })
    .unknown(true)
    .validate(req.body ?? {}, { abortEarly: true });
  if (error) throw new FormRefusal(400, error.details[0]?.path[0] === 'code' ? messages.code : messages.other);
  return value as T & { code: string };
}

export function auditContextOf(req: Request, res: Response): AuditContext {
  const user = currentUser(res);
  return {
    staffId: null,
    actor: user.email,
    merchantId: user.merchantId,
    merchantUserId: user.id,
    ...requestContext(req, res),
  };
}

/** Nothing is changed unless the code is right: 403 without two-factor, a 401 refusal for a wrong code. */
export async function requireFreshCode(
  deps: StepUpDeps,
  req: Request,
  res: Response,
  codeValue: string,
  action: string,
): Promise<void> {
  const d = developersText(localeOfResponse(res));
  const outcome = await confirmStepUp(deps, currentUser(res), codeValue, action, requestContext(req, res));
  if (outcome === 'no_two_factor') throw new PageError(403, d.noTwoFactor);
  if (outcome === 'wrong_code') throw new FormRefusal(401, d.wrongCode);
}
