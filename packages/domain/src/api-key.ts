/**
 * The API keys this system issues: `pk_` and 32 lowercase hex digits (createApiKey in @mm/db), and the
 * development seed's demo key, `pk_demo_` and 32 lowercase hex digits. Nothing else can be a key of
 * ours, so the gateway answers anything else 401 INVALID_API_KEY before any lookup: a flood of made-up
 * keys costs no database query and takes no place in the key cache.
 */
const ISSUED_API_KEY = /^pk_(?:demo_)?[0-9a-f]{32}$/;

export function isIssuedApiKeyFormat(apiKey: string): boolean {
  return ISSUED_API_KEY.test(apiKey);
}
