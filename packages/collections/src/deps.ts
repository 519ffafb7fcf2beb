import type { Db, SecretBox } from '@mm/db';

/** The database a use case reads and writes, each change in its own transaction with its audit row. */
export interface DbDeps {
  db: Db;
}

/** And the box that seals the secrets of the API keys it issues (MASTER_KEY). */
export interface KeyDeps extends DbDeps {
  box: SecretBox;
}
