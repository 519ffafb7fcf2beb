/**
 * The API key changes of `/developers`: create, roll (the old key kept working 24 h or 7 days), revoke.
 * The same use cases as the back-office's; a new secret is on the answer page only, never a redirect.
 */
import type { Request, Response } from 'express';
import Joi from 'joi';
import {
  createMerchantApiKey,
  isRotationGrace,
  revokeMerchantApiKey,
  rotateMerchantApiKey,
  type KeyDeps,
} from '@mm/collections';
import { notFoundError } from '@mm/web';
import { currentUser } from '../auth/guard.js';
import { localeOfResponse } from '../http/locals.js';
import { developersText } from '../i18n/developers.js';
import type { StepUpDeps } from '../use-cases/step-up.js';
import { issuedKeyView } from '../views/developers-issued-key.js';
import { PORTAL_GRACE_S } from '../views/developers.js';
import { renderPage } from '../views/render.js';
import { auditContextOf, FormRefusal, readForm, requireFreshCode } from './developers-forms.js';

export type DeveloperKeyDeps = KeyDeps & StepUpDeps;

const codeOnly = Joi.object({});
const rollForm = Joi.object<{ grace_s: number }>({
  grace_s: Joi.number()
    .integer()
    .valid(...PORTAL_GRACE_S)
    .required(),
});

function messagesOf(res: Response) {
  const d = developersText(localeOfResponse(res));
  return { d, form: { code: d.badCode, other: d.badGrace } };
}

export async function createKey(deps: DeveloperKeyDeps, req: Request, res: Response): Promise<void> {
  const { d, form } = messagesOf(res);
  const { code } = readForm(req, codeOnly, form);
  await requireFreshCode(deps, req, res, code, 'api_key.create');
  const key = await createMerchantApiKey(deps, auditContextOf(req, res), { merchantId: currentUser(res).merchantId });
  if (key === 'not_found') throw notFoundError();
  renderPage(req, res, { status: 201, title: d.newKey, body: issuedKeyView(localeOfResponse(res), { key }) });
}

export async function rollKey(deps: DeveloperKeyDeps, req: Request, res: Response, apiKey: string): Promise<void> {
  const { d, form } = messagesOf(res);
  const { code, grace_s: graceS } = readForm(req, rollForm, form);
  // PORTAL_GRACE_S is a subset of the use case's choices; the use case's own check stays the rule.
  if (!isRotationGrace(graceS)) throw new FormRefusal(400, d.badGrace);
  await requireFreshCode(deps, req, res, code, 'api_key.rotate');
  const outcome = await rotateMerchantApiKey(deps, auditContextOf(req, res), {
    merchantId: currentUser(res).merchantId,
    apiKey,
    graceS,
    now: new Date(deps.now()),
  });
  if (outcome === 'not_found') throw notFoundError();
  if (outcome === 'not_active') throw new FormRefusal(409, d.notActive);
  renderPage(req, res, {
    status: 201,
    title: d.keyRolled,
    body: issuedKeyView(localeOfResponse(res), {
      key: outcome.key,
      rolled: { oldApiKey: outcome.oldApiKey, oldExpiresAt: outcome.oldExpiresAt },
    }),
  });
}

export async function revokeKey(deps: DeveloperKeyDeps, req: Request, res: Response, apiKey: string): Promise<void> {
  const { form } = messagesOf(res);
  const { code } = readForm(req, codeOnly, form);
  await requireFreshCode(deps, req, res, code, 'api_key.revoke');
  const outcome = await revokeMerchantApiKey(deps, auditContextOf(req, res), {
    merchantId: currentUser(res).merchantId,
    apiKey,
    now: new Date(deps.now()),
  });
  if (outcome === 'not_found') throw notFoundError();
  res.redirect(303, `/developers?done=${outcome === 'changed' ? 'revoked' : 'unchanged'}`);
}
