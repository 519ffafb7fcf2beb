-- A failed webhook attempt has two descriptions. `error` is the merchant's (GET /api/v1/webhook-events):
-- a fixed vocabulary that never names an address or a resolver's answer, so that a webhook URL cannot be
-- used to probe our network. `error_detail` is staff's (back-office): what the target guard or the
-- connection said, addresses included. webhook_events.last_error, read by staff only, holds the detail.
ALTER TABLE webhook_attempts ADD COLUMN error_detail text;

-- Attempts recorded before kept the detail in `error`: it moves to error_detail, and `error` becomes
-- the reason the dispatcher gives today for the same failure.
UPDATE webhook_attempts
   SET error_detail = error,
       error = CASE
         WHEN error LIKE 'timeout after % ms' OR error = 'merchant has no active key' THEN error
         WHEN error LIKE 'refused target %' OR error LIKE 'cannot resolve %' OR error LIKE 'target URL %'
           THEN 'target refused: the URL must be http(s) and its host must resolve to public addresses only'
         WHEN error LIKE 'ECONNREFUSED%' THEN 'connection refused'
         WHEN error LIKE 'ECONNRESET%' OR error LIKE 'EPIPE%' THEN 'connection reset'
         WHEN error LIKE 'EHOSTUNREACH%' OR error LIKE 'ENETUNREACH%' THEN 'host unreachable'
         WHEN error LIKE 'ERR_TLS_%' OR error LIKE 'ERR_SSL_%' OR error LIKE 'CERT_%' OR error LIKE 'EPROTO%'
           OR error LIKE 'UNABLE_TO_%' OR error LIKE 'DEPTH_ZERO_SELF_SIGNED_CERT%' OR error LIKE 'SELF_SIGNED_CERT_IN_CHAIN%'
           THEN 'TLS handshake failed'
         ELSE 'connection failed'
       END
 WHERE error IS NOT NULL;
