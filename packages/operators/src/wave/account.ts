import type { AccountConfig } from '../registry.js';
import { WaveOperatorAdapter, WAVE_API_KEY_FORM } from './client.js';

/**
 * A Wave account: credentials `apiKey` (the business wallet's key, `wave_<country>_<env>_...`) and
 * `webhookSecret` (the signing secret of the webhook registered with the signing-secret strategy); no settings.
 */
export function waveAdapterFromAccount(c: AccountConfig): WaveOperatorAdapter {
  const { apiKey, webhookSecret } = c.credentials;
  if (!apiKey) throw new Error('operator account credentials lack "apiKey"');
  if (!WAVE_API_KEY_FORM.test(apiKey))
    throw new Error('operator account credential "apiKey" is not a Wave API key (wave_<country>_<env>_...)');
  if (!webhookSecret) throw new Error('operator account credentials lack "webhookSecret"');
  return new WaveOperatorAdapter({ baseUrl: c.baseUrl, apiKey, webhookSecret, timeoutMs: c.timeoutMs });
}
