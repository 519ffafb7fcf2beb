import { randomUUID } from 'node:crypto';
import { createMerchantTestDatabase, linkInput, type MerchantTestDatabase } from '@mm/testing/test-database';
import type { AuditInput } from '../staff/index.js';
import { deactivatePaymentLink, findMerchantPaymentLink, insertPaymentLink } from './index.js';

/**
 * A person's change of a link (the merchant portal's) is written with its audit row in one transaction:
 * the row made to fail (a staff id that does not exist breaks its foreign key) leaves no link and no
 * deactivation; a deactivation that changes nothing writes no row.
 */
let fixture: MerchantTestDatabase;
beforeAll(async () => {
  fixture = await createMerchantTestDatabase();
});
afterAll(async () => {
  await fixture.close();
});

const terms = () => linkInput(fixture.merchantId, { description: 'Audited', reusable: true, maxPayments: null });
const row = (action: string, targetId: string, staffId: string | null = null): AuditInput => ({
  staffId,
  actor: 'owner@shop.test',
  action,
  targetType: 'payment_link',
  targetId,
  merchantId: fixture.merchantId,
});
const links = () => fixture.db.paymentLink.count();
const audits = (action: string) => fixture.db.auditEntry.count({ where: { action } });

it('creates the link and its audit row together, or neither', async () => {
  const before = await links();
  await expect(
    insertPaymentLink(fixture.db, terms(), new Date(), (l) => row('test.link.created', l.id, randomUUID())),
  ).rejects.toThrow();
  expect(await links()).toBe(before);
  expect(await audits('test.link.created')).toBe(0);

  const link = await insertPaymentLink(fixture.db, terms(), new Date(), (l) => row('test.link.created', l.id));
  expect(await links()).toBe(before + 1);
  const [entry] = await fixture.db.auditEntry.findMany({ where: { action: 'test.link.created' } });
  expect(entry?.targetId).toBe(link.id);
});

it('deactivates with its audit row, or not at all; once deactivated, again writes nothing', async () => {
  const link = await insertPaymentLink(fixture.db, terms(), new Date());
  await expect(
    deactivatePaymentLink(fixture.db, fixture.merchantId, link.id, new Date(), (l) =>
      row('test.link.deactivated', l.id, randomUUID()),
    ),
  ).rejects.toThrow();
  expect((await findMerchantPaymentLink(fixture.db, fixture.merchantId, link.id, new Date()))?.status).toBe('ACTIVE');

  const first = await deactivatePaymentLink(fixture.db, fixture.merchantId, link.id, new Date(), (l) =>
    row('test.link.deactivated', l.id),
  );
  expect(first?.status).toBe('INACTIVE');
  const again = await deactivatePaymentLink(fixture.db, fixture.merchantId, link.id, new Date(), (l) =>
    row('test.link.deactivated', l.id),
  );
  expect(again?.deactivatedAt).toEqual(first?.deactivatedAt);
  expect(await audits('test.link.deactivated')).toBe(1);
});
