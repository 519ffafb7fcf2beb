import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v2';

/**
 * AES-256-GCM for API secrets at rest: the secret must be readable to verify HMACs, so it is
 * encrypted, never hashed. Each ciphertext is bound to its row by associated data (the key row's
 * merchant and api_key, see `apiKeySecretBinding`): copied into another row (someone with write access
 * to the table moving a secret they know onto another merchant's key), it no longer opens.
 * Format: v2.base64(iv).base64(tag).base64(ciphertext). The unbound format of before
 * (base64(iv).base64(tag).base64(ciphertext)) opens only through `openUnbound`, which the re-sealing
 * step of `pnpm admin migrate` uses once.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(masterKey: string) {
    const key = /^[0-9a-fA-F]{64}$/.test(masterKey) ? Buffer.from(masterKey, 'hex') : Buffer.from(masterKey, 'base64');
    if (key.length !== 32) throw new Error('MASTER_KEY must be 32 bytes, hex or base64');
    this.key = key;
  }

  seal(plaintext: string, binding: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(binding, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, ...[iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64'))].join('.');
  }

  /** Throws when the ciphertext was sealed for another binding, altered, or is of the unbound format. */
  open(sealed: string, binding: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION)
      throw new Error('sealed secret is not bound to its row (re-seal it: pnpm admin migrate)');
    return this.decrypt(parts.slice(1), binding);
  }

  /** The format before bindings; only to re-seal it. */
  openUnbound(sealed: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 3) throw new Error('not an unbound sealed secret');
    return this.decrypt(parts, null);
  }

  static isBound(sealed: string): boolean {
    return sealed.startsWith(`${VERSION}.`);
  }

  private decrypt(parts: string[], binding: string | null): string {
    const [iv, tag, ciphertext] = parts.map((p) => Buffer.from(p, 'base64'));
    if (!iv || !tag || !ciphertext) throw new Error('malformed sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    if (binding !== null) decipher.setAAD(Buffer.from(binding, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }
}

/** What an API key's secret is bound to: its table, its merchant and its public key. */
export function apiKeySecretBinding(row: { merchantId: string; apiKey: string }): string {
  return `api_keys\u0000${row.merchantId}\u0000${row.apiKey}`;
}
