import { createCipheriv, randomBytes } from 'node:crypto';

/**
 * For tests of the re-sealing step only: a secret sealed the way it was before row bindings (AES-256-GCM
 * without associated data, base64(iv).base64(tag).base64(ciphertext)), as older databases hold them.
 */
export function sealUnbound(masterKeyHex: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(masterKeyHex, 'hex'), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64')).join('.');
}
