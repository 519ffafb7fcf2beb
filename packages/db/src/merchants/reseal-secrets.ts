import type { Db } from '../database/index.js';
import { apiKeySecretBinding, type SecretBox } from '../database/index.js';

/**
 * The data step of `pnpm admin migrate`: every API secret still sealed in the format without a row
 * binding is sealed again, bound to its row. Idempotent (bound rows are left alone) and safe beside
 * running services (each row is replaced only if nobody changed it meanwhile). A MASTER_KEY that
 * cannot open a secret stops it, naming the key: nothing is re-sealed under the wrong master key.
 */
export async function resealUnboundSecrets(db: Db, box: SecretBox): Promise<number> {
  const rows = await db.apiKey.findMany({
    where: { NOT: { secretCiphertext: { startsWith: 'v2.' } } },
    select: { id: true, merchantId: true, apiKey: true, secretCiphertext: true },
  });
  let resealed = 0;
  for (const row of rows) {
    let secret: string;
    try {
      secret = box.openUnbound(row.secretCiphertext);
    } catch (err) {
      throw new Error(
        `cannot open the secret of API key ${row.apiKey} with this MASTER_KEY: ${(err as Error).message}`,
        { cause: err },
      );
    }
    const { count } = await db.apiKey.updateMany({
      where: { id: row.id, secretCiphertext: row.secretCiphertext },
      data: { secretCiphertext: box.seal(secret, apiKeySecretBinding(row)) },
    });
    resealed += count;
  }
  return resealed;
}
