import type { OperationObject, ParameterObject, PathItemObject, PathsObject } from 'openapi3-ts/oas31';

/** The optional header that ties a request's signature to its method and target (security review 11). */
export const requestSignatureParameter: ParameterObject = {
  name: 'X-Service-Request-Signature',
  in: 'header',
  required: false,
  description:
    'Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. ' +
    'X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. ' +
    'Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\\n), the method in capitals, a line feed, ' +
    'the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), ' +
    'a line feed, then the exact body bytes (none for a GET). ' +
    'Example: printf \'%s\\nGET\\n%s\\n\' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex.',
  schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
};

/** `paths` with X-Service-Request-Signature among the parameters of every operation. */
export function withRequestSignature(paths: PathsObject): PathsObject {
  const ref = { $ref: '#/components/parameters/RequestSignature' };
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as PathItemObject).map(([method, op]) => [
          method,
          { ...(op as OperationObject), parameters: [...((op as OperationObject).parameters ?? []), ref] },
        ]),
      ),
    ]),
  );
}
