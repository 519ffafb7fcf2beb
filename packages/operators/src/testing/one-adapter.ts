import type { OperatorAdapters } from '../directory/operator-directory.js';

/** Every account answered by the same adapter: a worker's handler under test with one fake operator. */
export function oneAdapter<A>(adapter: A): OperatorAdapters<A> {
  return { adapterFor: async () => adapter };
}
