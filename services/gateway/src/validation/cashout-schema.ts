// The portal's cash-out form runs the same schema: it lives with the use case.
export { cashoutSchema } from '@mm/collections';
