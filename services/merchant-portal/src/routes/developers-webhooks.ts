/**
 * The webhook side of `/developers`: the default URL (the back-office's use case and checks), the test
 * event, the event log with its filters, and re-sending abandoned events (the back-office's use case,
 * scoped to the merchant).
 */
import type { Request, Response } from 'express';
import Joi from 'joi';
import {
  changeMerchantWebhookUrl,
  parseWebhookUrl,
  resendWebhooks,
  sendTestWebhook,
  type ResendWebhooksDeps,
} from '@mm/collections';
import { abandonedEventIds, findMerchantWebhookEvent, listMerchantWebhookEvents } from '@mm/db/webhooks';
import { merchantCan } from '@mm/domain';
import { csrfToken, notFoundError, PageError, textField } from '@mm/web';
import { currentUser } from '../auth/guard.js';
import { localeOfResponse } from '../http/locals.js';
import { developersText, fill, webhookUrlErrorText } from '../i18n/developers.js';
import type { StepUpDeps } from '../use-cases/step-up.js';
import {
  EVENT_STATUSES,
  EVENT_TYPES,
  eventDetailView,
  eventLogView,
  type EventFilters,
} from '../views/developers-events.js';
import { renderPage } from '../views/render.js';
import { auditContextOf, FormRefusal, readForm, requireFreshCode } from './developers-forms.js';

export type DeveloperWebhookDeps = ResendWebhooksDeps & StepUpDeps;

/** Rows per page of the log; also the most events one "send again" of a window re-sends. */
export const EVENTS_PER_PAGE = 50;
export const WINDOW_RESEND_LIMIT = 100;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const filterSchema = Joi.object<EventFilters & { before: string }>({
  status: Joi.string()
    .valid('', ...EVENT_STATUSES)
    .default(''),
  event: Joi.string()
    .valid('', ...EVENT_TYPES)
    .default(''),
  from: Joi.string().allow('').pattern(DAY).default(''),
  to: Joi.string().allow('').pattern(DAY).default(''),
  before: Joi.string()
    .allow('')
    .pattern(/^\d{1,15}-\d{1,19}$/)
    .default(''),
}).options({ stripUnknown: true });

const utcDay = (day: string): Date | undefined => {
  if (!day) return undefined;
  const at = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? undefined : at;
};

export async function showEventLog(
  deps: DeveloperWebhookDeps,
  req: Request,
  res: Response,
  extra: { status?: number; notice?: string; error?: string } = {},
): Promise<void> {
  const locale = localeOfResponse(res);
  const d = developersText(locale);
  const user = currentUser(res);
  const query = req.method === 'GET' ? req.query : {};
  const { value, error } = filterSchema.validate(query);
  if (error) throw new PageError(400, d.badFilter);
  const { before, ...filters } = value as EventFilters & { before: string };
  const to = utcDay(filters.to);
  const page = await listMerchantWebhookEvents(deps.db, {
    merchantId: user.merchantId,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.event ? { eventType: filters.event } : {}),
    ...(filters.from ? { from: utcDay(filters.from)! } : {}),
    // The "to" day is included: events before the next midnight.
    ...(to ? { to: new Date(to.getTime() + 86_400_000) } : {}),
    ...(before ? { before } : {}),
    limit: EVENTS_PER_PAGE,
  });
  const kept = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ''));
  if (page.nextCursor) kept.set('before', page.nextCursor);
  const resent = textField(req.query, 'resent');
  const skipped = textField(req.query, 'skipped');
  const notice =
    extra.notice ??
    (resent && /^\d{1,3}$/.test(resent) && skipped && /^\d{1,3}$/.test(skipped)
      ? fill(d.resent, { resent, skipped })
      : undefined);
  renderPage(req, res, {
    status: extra.status ?? 200,
    title: d.events,
    body: eventLogView(locale, {
      filters,
      events: page.events,
      nextHref: page.nextCursor ? `/developers/webhooks?${kept.toString()}` : null,
      canResend: merchantCan(user.role, 'webhooks:manage'),
      resendLimit: WINDOW_RESEND_LIMIT,
      csrfToken: csrfToken(req),
      ...(notice ? { notice } : {}),
      ...(extra.error ? { error: extra.error } : {}),
    }),
  });
}

export async function showEvent(
  deps: DeveloperWebhookDeps,
  req: Request,
  res: Response,
  eventId: string,
  extra: { status?: number; notice?: string; error?: string } = {},
): Promise<void> {
  const locale = localeOfResponse(res);
  const user = currentUser(res);
  const event = await findMerchantWebhookEvent(deps.db, user.merchantId, eventId);
  if (!event) throw notFoundError();
  const d = developersText(locale);
  const asked = req.method === 'GET' ? req.query : {};
  const notice =
    extra.notice ??
    (textField(asked, 'resent') === '1'
      ? fill(d.resent, { resent: 1, skipped: 0 })
      : textField(asked, 'queued') === '1'
        ? d.done_test_queued
        : undefined);
  renderPage(req, res, {
    status: extra.status ?? 200,
    title: d.event,
    body: eventDetailView(locale, {
      event,
      canResend: merchantCan(user.role, 'webhooks:manage'),
      csrfToken: csrfToken(req),
      ...(notice ? { notice } : {}),
      ...(extra.error ? { error: extra.error } : {}),
    }),
  });
}

const urlForm = Joi.object<{ webhook_url: string }>({ webhook_url: Joi.string().allow('').max(4096).required() });

/** A refused URL is a 400 with the use case's message in the page's language. */
export async function changeWebhookUrl(
  deps: DeveloperWebhookDeps,
  req: Request,
  res: Response,
): Promise<'saved' | 'unchanged'> {
  const locale = localeOfResponse(res);
  const d = developersText(locale);
  const form = readForm(req, urlForm, { code: d.badCode, other: d.badUrlField });
  // The use case's own check, first: a typing mistake does not spend a code (each is accepted once).
  const parsed = parseWebhookUrl(form.webhook_url);
  if (!parsed.ok) throw new FormRefusal(400, webhookUrlErrorText(locale, parsed.error));
  await requireFreshCode(deps, req, res, form.code, 'merchant.webhook_url');
  const outcome = await changeMerchantWebhookUrl(deps, auditContextOf(req, res), {
    merchantId: currentUser(res).merchantId,
    webhookUrl: form.webhook_url,
  });
  if (outcome === 'not_found') throw notFoundError();
  if (typeof outcome === 'object') throw new FormRefusal(400, webhookUrlErrorText(locale, outcome.error));
  return outcome === 'changed' ? 'saved' : 'unchanged';
}

export async function sendTestEvent(deps: DeveloperWebhookDeps, req: Request, res: Response): Promise<void> {
  const d = developersText(localeOfResponse(res));
  const { code } = readForm(req, Joi.object({}), { code: d.badCode, other: d.badCode });
  await requireFreshCode(deps, req, res, code, 'webhook.test');
  const outcome = await sendTestWebhook(deps, auditContextOf(req, res), { merchantId: currentUser(res).merchantId });
  if (outcome === 'not_found') throw notFoundError();
  if (outcome === 'no_url') throw new FormRefusal(409, d.noUrl);
  if (outcome === 'no_event') throw new FormRefusal(409, d.noEvent);
  res.redirect(303, `/developers/webhooks/${outcome.eventId}?queued=1`);
}

export async function resendEvent(deps: DeveloperWebhookDeps, req: Request, res: Response, eventId: string) {
  const d = developersText(localeOfResponse(res));
  const user = currentUser(res);
  const event = await findMerchantWebhookEvent(deps.db, user.merchantId, eventId);
  if (!event) throw notFoundError();
  const { code } = readForm(req, Joi.object({}), { code: d.badCode, other: d.badCode });
  if (event.status !== 'ABANDONED') throw new FormRefusal(409, d.notAbandoned);
  await requireFreshCode(deps, req, res, code, 'webhook.resend');
  const { resent } = await resendWebhooks(deps, auditContextOf(req, res), [event.id], {
    merchantId: user.merchantId,
  });
  if (resent.length === 0) throw new FormRefusal(409, d.notAbandoned);
  res.redirect(303, `/developers/webhooks/${event.id}?resent=1`);
}

/** `datetime-local` sends `YYYY-MM-DDTHH:MM` (seconds optional): read as UTC, like every time shown. */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const windowForm = Joi.object<{ from: string; to: string }>({
  from: Joi.string().trim().pattern(LOCAL_TIME).required(),
  to: Joi.string().trim().pattern(LOCAL_TIME).required(),
});

export async function resendWindow(deps: DeveloperWebhookDeps, req: Request, res: Response): Promise<void> {
  const d = developersText(localeOfResponse(res));
  const form = readForm(req, windowForm, { code: d.badCode, other: d.badWindow });
  const from = new Date(`${form.from}Z`);
  const to = new Date(`${form.to}Z`);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from >= to) throw new FormRefusal(400, d.badWindow);
  await requireFreshCode(deps, req, res, form.code, 'webhook.resend');
  const user = currentUser(res);
  const ids = await abandonedEventIds(deps.db, { merchantId: user.merchantId, from, to, limit: WINDOW_RESEND_LIMIT });
  const { resent, skipped } = await resendWebhooks(deps, auditContextOf(req, res), ids, {
    merchantId: user.merchantId,
  });
  res.redirect(303, `/developers/webhooks?status=ABANDONED&resent=${resent.length}&skipped=${skipped.length}`);
}
