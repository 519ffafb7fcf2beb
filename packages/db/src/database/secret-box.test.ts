import { randomBytes } from 'node:crypto';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';
import { createApiKey, lookupApiKey, resealUnboundSecrets } from '../merchants/index.js';
import { apiKeySecretBinding, SecretBox } from './secret-box.js';
import { sealUnbound as sealUnboundWith } from '../testing/index.js';

const masterKey = randomBytes(32).toString('hex');
const box = new SecretBox(masterKey);

const sealUnbound = (plaintext: string) => sealUnboundWith(masterKey, plaintext);

describe('SecretBox', () => {
  it('opens a secret only with the binding it was sealed for', () => {
    const sealed = box.seal('sk_secret', 'row-a');
    expect(sealed).toMatch(/^v2\.[^.]+\.[^.]+\.[^.]+$/);
    expect(box.open(sealed, 'row-a')).toBe('sk_secret');
    expect(() => box.open(sealed, 'row-b')).toThrow();
    expect(() => new SecretBox(randomBytes(32).toString('hex')).open(sealed, 'row-a')).toThrow();
  });

  it('refuses the unbound format, which only openUnbound reads', () => {
    const old = sealUnbound('sk_old');
    expect(() => box.open(old, 'row-a')).toThrow(/not bound to its row/);
    expect(box.openUnbound(old)).toBe('sk_old');
    expect(() => box.openUnbound(box.seal('x', 'row-a'))).toThrow();
  });
});

describe('API key secrets in the database', () => {
  let fixture: MerchantTestDatabase;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('a secret moved onto another key row no longer opens: nobody signs as another merchant with a secret they know', async () => {
    const { db, merchantId } = fixture;
    const victimMerchant = (await db.merchant.create({ data: { name: 'Victim', webhookUrl: null } })).id;
    const mine = await createApiKey(db, box, merchantId);
    const victims = await createApiKey(db, box, victimMerchant);
    const myRow = await db.apiKey.findUniqueOrThrow({ where: { apiKey: mine.apiKey } });
    // Write access to the table: my known secret's ciphertext copied onto the victim's key.
    await db.apiKey.update({ where: { apiKey: victims.apiKey }, data: { secretCiphertext: myRow.secretCiphertext } });
    await expect(lookupApiKey(db, box, victims.apiKey)).rejects.toThrow();
    // Or my key row moved to the victim's merchant.
    await db.apiKey.update({ where: { apiKey: mine.apiKey }, data: { merchantId: victimMerchant } });
    await expect(lookupApiKey(db, box, mine.apiKey)).rejects.toThrow();
  });

  it('the migrate step binds every unbound secret to its row, once, and stops on a master key that cannot open them', async () => {
    const { db, merchantId } = fixture;
    const keys = ['pk_' + 'a'.repeat(32), 'pk_' + 'b'.repeat(32)];
    for (const apiKey of keys)
      await db.apiKey.create({ data: { merchantId, apiKey, secretCiphertext: sealUnbound(`secret-of-${apiKey}`) } });
    await expect(lookupApiKey(db, box, keys[0]!)).rejects.toThrow(/not bound/);

    await expect(resealUnboundSecrets(db, new SecretBox(randomBytes(32).toString('hex')))).rejects.toThrow(
      /cannot open the secret of API key pk_a+ with this MASTER_KEY/,
    );
    expect(
      SecretBox.isBound((await db.apiKey.findUniqueOrThrow({ where: { apiKey: keys[0]! } })).secretCiphertext),
    ).toBe(false);

    expect(await resealUnboundSecrets(db, box)).toBe(2);
    expect(await resealUnboundSecrets(db, box)).toBe(0);
    for (const apiKey of keys) {
      expect((await lookupApiKey(db, box, apiKey))?.secret).toBe(`secret-of-${apiKey}`);
      const row = await db.apiKey.findUniqueOrThrow({ where: { apiKey } });
      expect(box.open(row.secretCiphertext, apiKeySecretBinding(row))).toBe(`secret-of-${apiKey}`);
    }
  });
});
