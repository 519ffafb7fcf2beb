import type { Prisma } from '@mm/db';
import { presentWebhookEvent, type WebhookEventWithAttempts } from './webhook-event-presenter.js';

const attempt = (n: number, over: Partial<Prisma.WebhookAttemptModel>): Prisma.WebhookAttemptModel => ({
  id: BigInt(n),
  eventId: 'e',
  attemptNo: n,
  targetUrl: 'https://merchant.example/hook',
  statusCode: null,
  latencyMs: 0,
  error: null,
  errorDetail: null,
  success: false,
  createdAt: new Date(`2026-03-01T10:00:0${n}.000Z`),
  ...over,
});

const event: WebhookEventWithAttempts = {
  id: '6f1c0f4e-0000-4000-8000-000000000001',
  seq: 7n,
  merchantId: 'm',
  transactionId: '6f1c0f4e-0000-4000-8000-000000000002',
  refundId: null,
  eventType: 'payment.status_changed',
  payload: { event: 'payment.status_changed', data: { status: 'SUCCESS' } },
  body: null,
  targetUrl: 'https://merchant.example/hook',
  status: 'DELIVERED',
  attemptCount: 2,
  nextAttemptAt: null,
  lastError: 'connect ECONNREFUSED 10.0.0.5:443',
  deliveredAt: new Date('2026-03-01T10:00:02.000Z'),
  createdAt: new Date('2026-03-01T10:00:00.000Z'),
  updatedAt: new Date('2026-03-01T10:00:02.000Z'),
  attempts: [
    attempt(1, { latencyMs: 15, error: 'connection refused', errorDetail: 'connect ECONNREFUSED 10.0.0.5:443' }),
    attempt(2, { statusCode: 200, latencyMs: 42, success: true }),
  ],
};

describe('presentWebhookEvent', () => {
  // Exact bytes, field order included: what GET /webhook-events has always sent.
  it('is the event and its attempts, in the order of the answer', () => {
    expect(JSON.stringify(presentWebhookEvent(event))).toBe(
      '{"event_id":"6f1c0f4e-0000-4000-8000-000000000001","event":"payment.status_changed","transaction_id":"6f1c0f4e-0000-4000-8000-000000000002",' +
        '"status":"DELIVERED","target_url":"https://merchant.example/hook","attempt_count":2,"next_attempt_at":null,' +
        '"delivered_at":"2026-03-01T10:00:02.000Z","created_at":"2026-03-01T10:00:00.000Z",' +
        '"payload":{"event":"payment.status_changed","data":{"status":"SUCCESS"}},' +
        '"attempts":[{"attempt_no":1,"status_code":null,"latency_ms":15,"error":"connection refused","success":false,"at":"2026-03-01T10:00:01.000Z"},' +
        '{"attempt_no":2,"status_code":200,"latency_ms":42,"error":null,"success":true,"at":"2026-03-01T10:00:02.000Z"}]}',
    );
  });

  it("shows neither the staff-only detail of an attempt nor the event's last error", () => {
    const shown = JSON.stringify(presentWebhookEvent(event));
    expect(shown).not.toContain('ECONNREFUSED');
    expect(shown).not.toContain('10.0.0.5');
  });
});
