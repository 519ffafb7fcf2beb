// The portal's refund form runs the same schema: it lives with the use case.
export { idempotencyKeySchema, refundSchema } from '@mm/collections';
