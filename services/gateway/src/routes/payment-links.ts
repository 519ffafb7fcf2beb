import { Router } from 'express';
import { Joi } from '@mm/config';
import {
  createPaymentLink,
  paymentLinkListSchema,
  paymentLinkSchema,
  invalidField,
  uuidField,
  validate,
  type CreatePaymentLinkDeps,
} from '@mm/collections';
import { deactivatePaymentLink, findMerchantPaymentLink, listMerchantPaymentLinks } from '@mm/db/payment-links';
import { DomainError, type PaymentLinkStatus } from '@mm/domain';
import { jsonBodyOf, merchantContext } from '../http/request-context.js';
import { presentPaymentLink } from '../presenters/payment-link-presenter.js';
import { idempotencyKeyOf } from '../validation/idempotency-key.js';
import { isUuid } from '../validation/uuid.js';

/**
 * The deactivation's body: `{}`, or the link's own id. The signature covers the body, not the path: two
 * deactivations of `{}` signed in the same second are one request to the replay guard, whatever link
 * each names, so the SDK sends the id, which makes each its own.
 */
const DEACTIVATION_BODY = Joi.object<{ payment_link_id?: string }>({ payment_link_id: uuidField() });

const notFound = () => new DomainError('NOT_FOUND', 'no payment link with this id');

/** The merchant's payment links (docs/payment-links.md): create, read, list, deactivate. */
export function paymentLinksRouter(deps: CreatePaymentLinkDeps & { publicBaseUrl: string }): Router {
  const router = Router();
  const present = (link: Parameters<typeof presentPaymentLink>[0]) => presentPaymentLink(link, deps.publicBaseUrl);
  const now = () => new Date(deps.now());

  router.post('/payment-links', async (req, res) => {
    const body = validate(paymentLinkSchema, jsonBodyOf(res));
    const { link, replayed } = await createPaymentLink(deps, merchantContext(res).merchantId, body, {
      idempotencyKey: idempotencyKeyOf(req),
    });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(replayed ? 200 : 201).json({ data: present(link) });
  });

  router.get('/payment-links', async (req, res) => {
    const q = validate(paymentLinkListSchema, { ...req.query });
    const page = await listMerchantPaymentLinks(
      deps.db,
      {
        merchantId: merchantContext(res).merchantId,
        limit: Number(q.limit ?? 20),
        startingAfter: q.starting_after,
        status: q.status as PaymentLinkStatus | undefined,
      },
      now(),
    );
    res.json({ data: page.links.map(present), has_more: page.hasMore });
  });

  router.get('/payment-links/:id', async (req, res) => {
    const id = req.params.id;
    const link = isUuid(id) ? await findMerchantPaymentLink(deps.db, merchantContext(res).merchantId, id, now()) : null;
    if (!link) throw notFound();
    res.json({ data: present(link) });
  });

  router.post('/payment-links/:id/deactivate', async (req, res) => {
    const body = validate(DEACTIVATION_BODY, jsonBodyOf(res));
    const id = req.params.id;
    if (body.payment_link_id !== undefined && body.payment_link_id !== id)
      throw invalidField('payment_link_id', 'must be the id of the link in the path');
    const link = isUuid(id) ? await deactivatePaymentLink(deps.db, merchantContext(res).merchantId, id, now()) : null;
    if (!link) throw notFound();
    res.json({ data: present(link) });
  });

  return router;
}
