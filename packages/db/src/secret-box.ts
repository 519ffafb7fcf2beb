import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for API secrets at rest: the secret must be readable to verify HMACs, so it is
 * encrypted, never hashed. Format: base64(iv).base64(tag).base64(ciphertext).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(masterKey: string) {
    const key = /^[0-9a-fA-F]{64}$/.test(masterKey) ? Buffer.from(masterKey, 'hex') : Buffer.from(masterKey, 'base64');
    if (key.length !== 32) throw new Error('MASTER_KEY must be 32 bytes, hex or base64');
    this.key = key;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64')).join('.');
  }

  open(sealed: string): string {
    const [iv, tag, ciphertext] = sealed.split('.').map((p) => Buffer.from(p, 'base64'));
    if (!iv || !tag || !ciphertext) throw new Error('malformed sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }
}
