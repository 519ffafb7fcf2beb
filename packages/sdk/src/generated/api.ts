// Generated from the OpenAPI document (@mm/openapi) by `pnpm --filter @mm/sdk generate`. Do not edit.
/* eslint-disable */
export interface paths {
    "/payments/cashin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Collect a payment from a customer wallet (USSD push)
         * @description Records the cash-in and has the operator send a USSD push to the customer, who confirms with a secret code. The answer waits (at most CASHIN_ACK_WAIT_MS, 5 s) for the operator to acknowledge the push: 202 with status PENDING, or with the state reached by then (CREATED, INITIATED, or FAILED if the operator refused the push). The outcome comes by webhook (transaction.status_changed), and can be read with GET /payments/{id}.
         *
         *     Idempotent on merchant_order_id: the same order id with the same parameters answers 200 with the current state and `Idempotent-Replayed: true`; with other parameters 409 DUPLICATE_ORDER_ID. Each retry must be signed anew.
         */
        post: operations["createCashin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/cashout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay from the merchant balance to a wallet
         * @description Off by default: 501 DISBURSEMENT_NOT_CONFIGURED after authentication and validation, nothing written or debited. When enabled, the amount is reserved from the available balance of the beneficiary's subsidiary (409 INSUFFICIENT_BALANCE otherwise) and the answer is 202. Below CASHOUT_APPROVAL_THRESHOLD (1 000 000) it is sent at once; at or above, it waits in AWAITING_APPROVAL for a back-office approver. So does every cash-out that would take the merchant's cash-outs of the last 24 hours (all but FAILED ones) above CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL (3 000 000), or those to the same beneficiary above CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL (1 000 000): splitting a payment does not avoid approval. The outcome comes by webhook (transaction.status_changed, type CASHOUT). Idempotent on merchant_order_id, like a cash-in.
         */
        post: operations["createCashout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a transaction (cash-in or cash-out) */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund a successful cash-in, in whole or in part
         * @description Only a SUCCESS cash-in can be refunded (409 INVALID_STATE otherwise: a cash-out, or a cash-in in another state, REVERSED included). Several partial refunds are allowed while the refunds that are not FAILED stay within the amount (422 REFUND_EXCEEDS_AMOUNT otherwise, checked atomically). The amount is reserved from the available balance (409 INSUFFICIENT_BALANCE when it cannot cover it). The refund becomes SUCCESS or FAILED (webhook refund.status_changed); when refunds that succeeded cover the whole amount the cash-in becomes REVERSED (webhook transaction.status_changed).
         */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/refunds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a refund */
        get: operations["getRefund"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payment-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your payment links, newest first
         * @description Paged: has_more tells whether links come after the last one; ask for them with starting_after set to its payment_link_id.
         */
        get: operations["listPaymentLinks"];
        put?: never;
        /**
         * Create a payment link and its QR code
         * @description Answers the link with its address (url) and its QR code (qr_code.png, qr_code.svg), status ACTIVE. Either amount, or both min_amount and max_amount, within AMOUNT_MIN..AMOUNT_MAX (422 AMOUNT_OUT_OF_RANGE otherwise); max_payments only with reusable: true; expires_at in the future. Bad input is a 400 VALIDATION_ERROR naming each field, and nothing is written.
         *
         *     Send an Idempotency-Key to make a retry safe: without one, the same request sent twice (signed anew) makes two links.
         */
        post: operations["createPaymentLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payment-links/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a payment link, with its payments counts and the total collected */
        get: operations["getPaymentLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payment-links/{id}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deactivate a payment link
         * @description Body {} or {"payment_link_id": <the same id>}. The link stops taking payments at once (a payment already in progress goes on to its end) and never takes one again. Answers the link, status INACTIVE; deactivating it again answers the same.
         */
        post: operations["deactivatePaymentLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Balances, one per active country subsidiary
         * @description One entry per active subsidiary of the service, zeros where the merchant has no activity. Computed from a double-entry journal written in the same database transaction as each state change.
         */
        get: operations["listBalances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transactions/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export transactions for reconciliation (JSON or CSV)
         * @description Your transactions created from date_from 00:00 UTC to the end of date_to (at most 366 days, both included), ordered by created_at then transaction_id. Streamed from one database cursor (one consistent snapshot, flat memory for any size). If it fails once started the connection is cut before the final chunk: a failed download, never a shorter file that looks complete.
         *
         *     CSV: a header line with the ExportRow field names in order, RFC 4180 (CRLF, quoted cells), empty cell for null; a text cell starting with = + - @, a tab or CR is prefixed with ' (spreadsheet formula injection).
         */
        get: operations["exportTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your webhook events and every delivery attempt
         * @description Newest first. Each event with its delivery state and every attempt (status code, latency, error).
         */
        get: operations["listWebhookEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document
         * @description Not authenticated. A readable rendering is at /api/v1/docs.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "transaction.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A transaction reached SUCCESS, FAILED, EXPIRED or REVERSED
         * @description Delivered to the transaction's notify_url, or to your default webhook URL. A 2xx within 10 s is a success; anything else is retried after 1 min, 5 min, 15 min, 1 h, 6 h and 24 h (7 attempts), then abandoned (visible in GET /webhook-events; the service can re-send it). One transaction's events arrive in order. A delivery may arrive more than once: handle events idempotently by event_id. Answer within 3 seconds and process asynchronously.
         */
        post: operations["transactionStatusChanged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A refund became SUCCESS or FAILED
         * @description Delivered to the transaction's notify_url, or to your default webhook URL. A 2xx within 10 s is a success; anything else is retried after 1 min, 5 min, 15 min, 1 h, 6 h and 24 h (7 attempts), then abandoned (visible in GET /webhook-events; the service can re-send it). One transaction's events arrive in order. A delivery may arrive more than once: handle events idempotently by event_id. Answer within 3 seconds and process asynchronously.
         */
        post: operations["refundStatusChanged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description The merchant's unique order id (1-100 printable ASCII characters, no spaces): the idempotency key of cash-ins and cash-outs. */
        MerchantOrderId: string;
        /**
         * @description ISO 4217. XOF for BJ BF CI GW ML NE SN TG, XAF for CM CF TD CG GQ GA.
         * @enum {string}
         */
        Currency: "XOF" | "XAF";
        /**
         * @description ISO 3166-1 alpha-2 code of a country subsidiary.
         * @example CI
         */
        CountryCode: string;
        /**
         * @description E.164 number with its middle digits replaced by asterisks.
         * @example +22507******01
         */
        MaskedMsisdn: string;
        /**
         * @description CREATED → INITIATED → PENDING → SUCCESS | FAILED | EXPIRED; EXPIRED → SUCCESS (late confirmation); SUCCESS → REVERSED. A cash-out: CREATED | AWAITING_APPROVAL → INITIATED → SUCCESS | FAILED.
         * @enum {string}
         */
        TransactionStatus: "CREATED" | "INITIATED" | "PENDING" | "SUCCESS" | "FAILED" | "EXPIRED" | "REVERSED" | "AWAITING_APPROVAL";
        /**
         * @description Normalised cause of a FAILED transaction: INSUFFICIENT_BALANCE (60019), INVALID_SECRET_CODE (00017), THRESHOLD_REACHED (100004-100090), CUSTOMER_DID_NOT_VALIDATE, OPERATOR_REJECTED, OPERATOR_UNAVAILABLE, REJECTED_BY_APPROVER (cash-out), UNKNOWN.
         * @enum {string}
         */
        FailureCode: "INSUFFICIENT_BALANCE" | "INVALID_SECRET_CODE" | "THRESHOLD_REACHED" | "CUSTOMER_DID_NOT_VALIDATE" | "OPERATOR_REJECTED" | "OPERATOR_UNAVAILABLE" | "REJECTED_BY_APPROVER" | "UNKNOWN" | "PAYER_NOT_FOUND";
        /**
         * @description The operator the payment went through (additive field): the one named in the request, or the one chosen from the number. SIMULATOR for a subsidiary without operator accounts.
         * @enum {string}
         */
        Operator: "ORANGE" | "MTN" | "MOOV" | "WAVE" | "SIMULATOR";
        /** @description What the customer must do to pay a cash-in: NONE (a USSD push: the phone rings, the customer confirms there), REDIRECT (pay on the operator's page at `url`, which comes back to payment_url), or OTP (dial `ussd` to get a one-time code, then enter it on the payment page). */
        CustomerAction: {
            /** @constant */
            type: "NONE";
        } | {
            /** @constant */
            type: "REDIRECT";
            /**
             * Format: uri
             * @example https://operator.example/pay/abc
             */
            url: string;
        } | {
            /** @constant */
            type: "OTP";
            /** @example #144*82# */
            ussd: string;
        };
        /** @description A cash-in as answered by POST /payments/cashin: the cash-in fields of the v1 interface plus failure_code, failure_reason and refunded_amount, and the additive operator and customer_action. */
        CashinTransaction: {
            /**
             * Format: uuid
             * @description Service identifier of the transaction.
             */
            transaction_id: string;
            merchant_order_id: components["schemas"]["MerchantOrderId"];
            /** @constant */
            type: "CASHIN";
            status: components["schemas"]["TransactionStatus"];
            /** @description Whole francs (XOF and XAF have no minor unit). */
            amount: number;
            currency: components["schemas"]["Currency"];
            country_code: components["schemas"]["CountryCode"];
            msisdn: components["schemas"]["MaskedMsisdn"];
            /** @constant */
            payment_method: "USSD_PUSH";
            /**
             * Format: uri
             * @description Service-hosted page following the USSD confirmation; redirect the customer there or show your own.
             */
            payment_url: string;
            /** @description Partner reference sent to the operator; the reconciliation key in a dispute. */
            provider_reference: string;
            /** @description Operator transaction id; null until the customer has confirmed. */
            provider_tx_id: string | null;
            /** @description Null in this response; read it with GET /payments/{id}. */
            provider_session_id: null;
            /** @description Raw operator state. A cash-in: PENDING until the operator has decided, then OK, canceled or KO. A cash-out: PENDING while it is sent (CREATED, INITIATED), null while AWAITING_APPROVAL or when rejected by an approver, then OK or FAILED as the operator answered. */
            provider_state: string | null;
            /** @description Detailed operator code: 200 on success, 54321 (cause in failure_reason), 60019, 00017, 100004..100090. */
            provider_txn_status: string | null;
            failure_code: components["schemas"]["FailureCode"] | null;
            /** @description The operator's precise cause (e.g. "60019") when provider_txn_status is 54321; for a cash-out, the operator's or approver's reason; otherwise null. */
            failure_reason: string | null;
            /** @description Sum of the refunds that succeeded. */
            refunded_amount: number;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC.
             */
            updated_at: string;
            operator: components["schemas"]["Operator"];
            /** @description Null until the operator has acknowledged the push (status CREATED or INITIATED); then what the operator asked of the customer, {"type": "NONE"} for a plain USSD push (the phone rings; also when the push was refused or the cash-in is decided). Additive field. */
            customer_action: components["schemas"]["CustomerAction"] | null;
        };
        /** @description A transaction as read by GET /payments/{id}: the status fields of the v1 interface plus failure_code, failure_reason and refunded_amount, and the additive operator, customer_action and payment_link_id. */
        Transaction: {
            /**
             * Format: uuid
             * @description Service identifier of the transaction.
             */
            transaction_id: string;
            merchant_order_id: components["schemas"]["MerchantOrderId"];
            /** @enum {string} */
            type: "CASHIN" | "CASHOUT";
            status: components["schemas"]["TransactionStatus"];
            /** @description Whole francs (XOF and XAF have no minor unit). */
            amount: number;
            currency: components["schemas"]["Currency"];
            country_code: components["schemas"]["CountryCode"];
            /**
             * @description USSD_PUSH for a cash-in, WALLET_TRANSFER for a cash-out.
             * @enum {string}
             */
            payment_method: "USSD_PUSH" | "WALLET_TRANSFER";
            /** @description Partner reference sent to the operator; the reconciliation key in a dispute. */
            provider_reference: string;
            /** @description Operator transaction id; null until the customer has confirmed. */
            provider_tx_id: string | null;
            /** @description Operator session id; always null in the cash-in response. */
            provider_session_id: string | null;
            /** @description Raw operator state. A cash-in: PENDING until the operator has decided, then OK, canceled or KO. A cash-out: PENDING while it is sent (CREATED, INITIATED), null while AWAITING_APPROVAL or when rejected by an approver, then OK or FAILED as the operator answered. */
            provider_state: string | null;
            /** @description Detailed operator code: 200 on success, 54321 (cause in failure_reason), 60019, 00017, 100004..100090. */
            provider_txn_status: string | null;
            failure_code: components["schemas"]["FailureCode"] | null;
            /** @description The operator's precise cause (e.g. "60019") when provider_txn_status is 54321; for a cash-out, the operator's or approver's reason; otherwise null. */
            failure_reason: string | null;
            /** @description Sum of the refunds that succeeded. */
            refunded_amount: number;
            /**
             * Format: date-time
             * @description Set on the move to a terminal state (SUCCESS, FAILED, EXPIRED, REVERSED); null before.
             */
            completed_at: string | null;
            operator: components["schemas"]["Operator"];
            /** @description A cash-in: Null until the operator has acknowledged the push (status CREATED or INITIATED); then what the operator asked of the customer, {"type": "NONE"} for a plain USSD push (the phone rings; also when the push was refused or the cash-in is decided). Additive field. A cash-out: always null. */
            customer_action: components["schemas"]["CustomerAction"] | null;
            /**
             * Format: uuid
             * @description The payment link the payment was made through (a cash-in paid on a link page); null for every other transaction. Additive field.
             */
            payment_link_id: string | null;
        };
        /** @description A cash-out as answered by POST /payments/cashout. Read it later with GET /payments/{id}. */
        Cashout: {
            /**
             * Format: uuid
             * @description Service identifier of the transaction.
             */
            transaction_id: string;
            merchant_order_id: components["schemas"]["MerchantOrderId"];
            /** @constant */
            type: "CASHOUT";
            /** @enum {string} */
            status: "CREATED" | "AWAITING_APPROVAL" | "INITIATED" | "SUCCESS" | "FAILED";
            /** @description Whole francs (XOF and XAF have no minor unit). */
            amount: number;
            currency: components["schemas"]["Currency"];
            country_code: components["schemas"]["CountryCode"];
            beneficiary_msisdn: components["schemas"]["MaskedMsisdn"];
            /** @constant */
            payment_method: "WALLET_TRANSFER";
            reason: string | null;
            /** @description Partner reference sent to the operator; the reconciliation key in a dispute. */
            provider_reference: string;
            /** @description Operator transaction id; null until the customer has confirmed. */
            provider_tx_id: string | null;
            failure_code: components["schemas"]["FailureCode"] | null;
            /** @description The operator's precise cause (e.g. "60019") when provider_txn_status is 54321; for a cash-out, the operator's or approver's reason; otherwise null. */
            failure_reason: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            operator: components["schemas"]["Operator"];
        };
        /** @description One exported transaction: the GET /payments/{id} record without customer_action, plus the masked customer number and both timestamps. In CSV, the columns in the order of `required`: those added later come last, operator then payment_link_id. */
        ExportRow: {
            /**
             * Format: uuid
             * @description Service identifier of the transaction.
             */
            transaction_id: string;
            merchant_order_id: components["schemas"]["MerchantOrderId"];
            /** @enum {string} */
            type: "CASHIN" | "CASHOUT";
            status: components["schemas"]["TransactionStatus"];
            /** @description Whole francs (XOF and XAF have no minor unit). */
            amount: number;
            currency: components["schemas"]["Currency"];
            country_code: components["schemas"]["CountryCode"];
            /**
             * @description USSD_PUSH for a cash-in, WALLET_TRANSFER for a cash-out.
             * @enum {string}
             */
            payment_method: "USSD_PUSH" | "WALLET_TRANSFER";
            /** @description Partner reference sent to the operator; the reconciliation key in a dispute. */
            provider_reference: string;
            /** @description Operator transaction id; null until the customer has confirmed. */
            provider_tx_id: string | null;
            /** @description Operator session id; always null in the cash-in response. */
            provider_session_id: string | null;
            /** @description Raw operator state. A cash-in: PENDING until the operator has decided, then OK, canceled or KO. A cash-out: PENDING while it is sent (CREATED, INITIATED), null while AWAITING_APPROVAL or when rejected by an approver, then OK or FAILED as the operator answered. */
            provider_state: string | null;
            /** @description Detailed operator code: 200 on success, 54321 (cause in failure_reason), 60019, 00017, 100004..100090. */
            provider_txn_status: string | null;
            failure_code: components["schemas"]["FailureCode"] | null;
            /** @description The operator's precise cause (e.g. "60019") when provider_txn_status is 54321; for a cash-out, the operator's or approver's reason; otherwise null. */
            failure_reason: string | null;
            /** @description Sum of the refunds that succeeded. */
            refunded_amount: number;
            /** Format: date-time */
            completed_at: string | null;
            msisdn: components["schemas"]["MaskedMsisdn"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            operator: components["schemas"]["Operator"];
            /**
             * Format: uuid
             * @description The payment link the payment was made through (a cash-in paid on a link page); null for every other transaction. Additive field.
             */
            payment_link_id: string | null;
        };
        CashinRequest: {
            merchant_order_id: components["schemas"]["MerchantOrderId"];
            /** @description Whole francs, within AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default; outside: 422 AMOUNT_OUT_OF_RANGE). JSON numbers are not coerced: "5000" is refused. */
            amount: number;
            /** @description Deduced from the country when omitted; when given it must be the country's (else 422 CURRENCY_MISMATCH). */
            currency?: string;
            /**
             * @description The customer number in E.164 (e.g. +2250707000001); its country must be an active subsidiary.
             * @example +2250707000001
             */
            customer_msisdn: string;
            /** @description Deduced from the number when omitted; when given it must be the number's country (else 400 VALIDATION_ERROR on country_code). */
            country_code?: string;
            /** @description Text shown to the customer in the USSD push. */
            motif?: string;
            /**
             * Format: uri
             * @description Where the hosted payment page sends the customer once the payment is decided.
             */
            return_url?: string;
            /**
             * Format: uri
             * @description Webhook URL of this transaction, instead of the merchant's default one.
             */
            notify_url?: string;
            /**
             * @description Operator to send the payment to; without it, chosen from the customer's number (longest prefix among the subsidiary's enabled operator accounts). Answers 422 OPERATOR_NOT_SUPPORTED when no enabled operator serves the number, 503 OPERATOR_UNAVAILABLE with Retry-After when its account is disabled or marked down.
             * @enum {string}
             */
            operator?: "ORANGE" | "MTN" | "MOOV" | "WAVE" | "SIMULATOR";
            /** @description Free data, at most 10 keys; values string (at most 500 characters), number or boolean. */
            metadata?: {
                [key: string]: string | number | boolean;
            };
        };
        CashoutRequest: {
            merchant_order_id: components["schemas"]["MerchantOrderId"];
            /** @description Whole francs, within AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default; outside: 422 AMOUNT_OUT_OF_RANGE). JSON numbers are not coerced: "5000" is refused. At or above CASHOUT_APPROVAL_THRESHOLD (1 000 000) it waits for a back-office approver, as it does past the merchant's or the beneficiary's 24-hour cash-out total. */
            amount: number;
            /**
             * @description The beneficiary number in E.164 (e.g. +2250707000001); its country must be an active subsidiary.
             * @example +2250707000001
             */
            beneficiary_msisdn: string;
            /** @description Deduced from the beneficiary's country when omitted. */
            currency?: string;
            /** @description Free-text purpose. */
            reason?: string;
            /**
             * Format: uri
             * @description An http(s) URL.
             */
            notify_url?: string;
            /**
             * @description Operator to send the payment to; without it, chosen from the customer's number (longest prefix among the subsidiary's enabled operator accounts). Answers 422 OPERATOR_NOT_SUPPORTED when no enabled operator serves the number, 503 OPERATOR_UNAVAILABLE with Retry-After when its account is disabled or marked down.
             * @enum {string}
             */
            operator?: "ORANGE" | "MTN" | "MOOV" | "WAVE" | "SIMULATOR";
        };
        RefundRequest: {
            /**
             * Format: uuid
             * @description The SUCCESS cash-in to refund.
             */
            transaction_id: string;
            /** @description Omitted: the whole transaction amount (not what is left after partial refunds). */
            amount?: number;
            reason?: string;
        };
        /** @description A payment link (docs/payment-links.md): either a fixed `amount`, or `min_amount` and `max_amount` (min_amount ≤ max_amount, else 400 VALIDATION_ERROR) within which the customer types the amount. The same request sent twice makes two links unless it carries an Idempotency-Key. */
        PaymentLinkRequest: {
            /** @description What the customer pays for, shown on the link page. */
            description: string;
            /** @description The subsidiary that collects; the currency follows. Not an active subsidiary: 422 COUNTRY_NOT_SUPPORTED. */
            country_code: string;
            /** @description A fixed amount. Whole francs, within AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default; outside: 422 AMOUNT_OUT_OF_RANGE). JSON numbers are not coerced: "5000" is refused. */
            amount?: number;
            /** @description The least the customer may type; with max_amount, instead of amount. Whole francs, within AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default; outside: 422 AMOUNT_OUT_OF_RANGE). JSON numbers are not coerced: "5000" is refused. */
            min_amount?: number;
            /** @description The most the customer may type; with min_amount, instead of amount. Whole francs, within AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default; outside: 422 AMOUNT_OUT_OF_RANGE). JSON numbers are not coerced: "5000" is refused. */
            max_amount?: number;
            /** @description false (also when omitted): the link takes one payment; true: it takes payments until max_payments or expires_at. */
            reusable?: boolean;
            /** @description Reusable links only (with reusable: true, else 400 VALIDATION_ERROR): at most this many successful or in-progress payments. Omitted: no cap. */
            max_payments?: number;
            /**
             * Format: date-time
             * @description In the future: after it the link takes no payment. Omitted: it does not expire.
             */
            expires_at?: string;
            /**
             * Format: uri
             * @description Where the customer is sent once the payment has ended.
             */
            redirect_url?: string;
            /** @description Free data, at most 10 keys; values string (at most 500 characters), number or boolean. Copied onto each payment's transaction. */
            metadata?: {
                [key: string]: string | number | boolean;
            };
        } & (unknown & unknown);
        /**
         * @description ACTIVE: it takes payments. COMPLETED: its successful payments reached max_payments (a single-use link once paid). EXPIRED: expires_at has passed. INACTIVE: you deactivated it (it never takes a payment again).
         * @enum {string}
         */
        PaymentLinkStatus: "ACTIVE" | "COMPLETED" | "EXPIRED" | "INACTIVE";
        /** @description A payment link (docs/payment-links.md): every field always present, null where it does not apply. Each payment made through it is a cash-in carrying the link's payment_link_id. */
        PaymentLink: {
            /** Format: uuid */
            payment_link_id: string;
            /**
             * Format: uri
             * @description The customer's page, https://<gateway>/l/<slug>: share it, or its QR code.
             */
            url: string;
            qr_code: {
                /**
                 * Format: uri
                 * @description The link address as a QR code, PNG.
                 */
                png: string;
                /**
                 * Format: uri
                 * @description The same QR code, SVG.
                 */
                svg: string;
            };
            status: components["schemas"]["PaymentLinkStatus"];
            description: string;
            country_code: components["schemas"]["CountryCode"];
            currency: components["schemas"]["Currency"];
            /** @description The fixed amount, in whole francs; null when the customer types it within min_amount..max_amount. */
            amount: number | null;
            /** @description With max_amount, the bounds of the amount the customer types; null for a fixed amount. */
            min_amount: number | null;
            /** @description With min_amount, the bounds of the amount the customer types; null for a fixed amount. */
            max_amount: number | null;
            reusable: boolean;
            /** @description At most this many successful or in-progress payments: 1 for a single-use link, null for a reusable one without a cap. */
            max_payments: number | null;
            /**
             * Format: date-time
             * @description After it the link takes no payment; null: it does not expire.
             */
            expires_at: string | null;
            /**
             * Format: uri
             * @description Where the customer is sent once the payment has ended.
             */
            redirect_url: string | null;
            /** @description Yours, as given: copied onto each payment's transaction. */
            metadata: {
                [key: string]: string | number | boolean;
            } | null;
            /** @description The payments made through the link so far. */
            payments: {
                /** @description Successful payments. */
                succeeded: number;
                /** @description Payments started and not yet decided (they hold their place under max_payments). */
                in_progress: number;
                /** @description Sum of the successful payments, in whole francs. */
                collected_amount: number;
            };
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When you deactivated it; null while you have not.
             */
            deactivated_at: string | null;
        } & (unknown & unknown);
        /** @description A refund of a SUCCESS cash-in. Its amount is reserved from the available balance when accepted and released if it FAILS. */
        Refund: {
            /** Format: uuid */
            refund_id: string;
            /** Format: uuid */
            transaction_id: string;
            merchant_order_id: components["schemas"]["MerchantOrderId"];
            amount: number;
            currency: components["schemas"]["Currency"];
            reason: string | null;
            /** @enum {string} */
            status: "PENDING" | "SUCCESS" | "FAILED";
            /** @description The operator's reason when the refund FAILED. */
            failure_reason: string | null;
            /** @description Reference of the refund sent to the operator, which dedupes on it: a retried refund is never paid twice. */
            provider_reference: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            completed_at: string | null;
        };
        Balance: {
            country_code: components["schemas"]["CountryCode"];
            country_name: string;
            currency: components["schemas"]["Currency"];
            /** @description Captured cash-ins minus refunds and cash-outs, reserved or paid. */
            available_balance: number;
            /** @description Cash-ins not yet decided (CREATED, INITIATED, PENDING). */
            pending_balance: number;
            /**
             * Format: date-time
             * @description Last movement of either balance (the subsidiary's activation when none).
             */
            updated_at: string;
        };
        ExportMeta: {
            count: number;
            /** Format: date */
            date_from: string;
            /** Format: date */
            date_to: string;
            country_code?: components["schemas"]["CountryCode"];
        };
        WebhookAttempt: {
            /** @description 1 to 7 on the schedule; a delivery re-sent after it was abandoned continues the count. */
            attempt_no: number;
            /** @description HTTP status your endpoint answered; null when it did not answer. */
            status_code: number | null;
            latency_ms: number;
            /** @description Why the attempt failed when no status explains it, in fixed words that never name an address: `timeout after N ms`, `connection refused`, `connection reset`, `host unreachable`, `TLS handshake failed`, `connection failed`, `merchant has no active key`, or `target refused: the URL must be http(s) and its host must resolve to public addresses only` (also when the host does not resolve). */
            error: string | null;
            /** @description A 2xx within 10 s. */
            success: boolean;
            /** Format: date-time */
            at: string;
        };
        WebhookEvent: {
            /** Format: uuid */
            event_id: string;
            /** @enum {string} */
            event: "transaction.status_changed" | "refund.status_changed";
            /** Format: uuid */
            transaction_id: string;
            /**
             * @description PENDING: being delivered or retried; ABANDONED: 7 attempts failed (re-sent by the service on request); NO_TARGET: neither notify_url nor a default URL.
             * @enum {string}
             */
            status: "PENDING" | "DELIVERED" | "ABANDONED" | "NO_TARGET";
            target_url: string | null;
            attempt_count: number;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** Format: date-time */
            delivered_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description The fields of the JSON body sent to your endpoint (stored as JSON: its key order may differ from the bytes that were signed). */
            payload: components["schemas"]["TransactionStatusChangedEvent"] | components["schemas"]["RefundStatusChangedEvent"];
            attempts: components["schemas"]["WebhookAttempt"][];
        };
        /** @description Sent on every move of a transaction to SUCCESS, FAILED, EXPIRED or REVERSED. */
        TransactionStatusChangedEvent: {
            /** @constant */
            event: "transaction.status_changed";
            /**
             * Format: uuid
             * @description The same on every retry of this event: deduplicate on it.
             */
            event_id: string;
            /** Format: uuid */
            transaction_id: string;
            merchant_order_id: components["schemas"]["MerchantOrderId"];
            /** @enum {string} */
            type: "CASHIN" | "CASHOUT";
            /** @enum {string} */
            status: "SUCCESS" | "FAILED" | "EXPIRED" | "REVERSED";
            amount: number;
            currency: components["schemas"]["Currency"];
            country_code: components["schemas"]["CountryCode"];
            provider_tx_id: string | null;
            /** @description Only on FAILED. */
            failure_code?: components["schemas"]["FailureCode"];
            /** @description Only on FAILED. */
            failure_reason?: string | null;
            /** @description The operator the payment went through (additive field). On every event recorded since it was added; an event recorded before (or a retry or re-send of one) lacks it, as its body is stored when the change happens. */
            operator?: components["schemas"]["Operator"];
            /**
             * Format: uuid
             * @description The payment link the payment was made through (additive field): only on the events of such a payment, absent on every other.
             */
            payment_link_id?: string;
            /**
             * Format: date-time
             * @description When the change happened, ISO 8601 with offset.
             */
            timestamp: string;
        };
        /** @description Sent when a refund becomes SUCCESS or FAILED (before the REVERSED event a refund may cause). */
        RefundStatusChangedEvent: {
            /** @constant */
            event: "refund.status_changed";
            /** Format: uuid */
            event_id: string;
            /** Format: uuid */
            refund_id: string;
            /** Format: uuid */
            transaction_id: string;
            merchant_order_id: components["schemas"]["MerchantOrderId"];
            amount: number;
            currency: components["schemas"]["Currency"];
            reason: string | null;
            /** @enum {string} */
            status: "SUCCESS" | "FAILED";
            /** @description The operator's reason when the refund FAILED. */
            failure_reason: string | null;
            /** @description Reference of the refund sent to the operator, which dedupes on it: a retried refund is never paid twice. */
            provider_reference: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            completed_at: string | null;
            /** Format: date-time */
            timestamp: string;
        };
        /** @description Every error body: a stable code, a message for people, optional details and the request id. */
        Error: {
            error: {
                /** @enum {string} */
                code: "VALIDATION_ERROR" | "INVALID_JSON" | "AUTHENTICATION_REQUIRED" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "TIMESTAMP_OUT_OF_TOLERANCE" | "REQUEST_REPLAYED" | "MERCHANT_DISABLED" | "NOT_FOUND" | "DUPLICATE_ORDER_ID" | "INVALID_STATE" | "INSUFFICIENT_BALANCE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "COUNTRY_NOT_SUPPORTED" | "CURRENCY_MISMATCH" | "AMOUNT_OUT_OF_RANGE" | "REFUND_EXCEEDS_AMOUNT" | "RATE_LIMITED" | "DISBURSEMENT_NOT_CONFIGURED" | "OPERATOR_UNAVAILABLE" | "INTERNAL_ERROR" | "IDEMPOTENCY_KEY_REUSED" | "OPERATOR_NOT_SUPPORTED" | "SERVICE_UNAVAILABLE";
                /** @description For people; may change. Program against `code`. */
                message: string;
                /** @description With VALIDATION_ERROR: one entry per problem. */
                details?: components["schemas"]["FieldIssue"][];
                /** @description The X-Request-Id of the response; quote it to support. */
                request_id: string;
            };
        };
        /** @enum {string} */
        ErrorCode: "VALIDATION_ERROR" | "INVALID_JSON" | "AUTHENTICATION_REQUIRED" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "TIMESTAMP_OUT_OF_TOLERANCE" | "REQUEST_REPLAYED" | "MERCHANT_DISABLED" | "NOT_FOUND" | "DUPLICATE_ORDER_ID" | "INVALID_STATE" | "INSUFFICIENT_BALANCE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "COUNTRY_NOT_SUPPORTED" | "CURRENCY_MISMATCH" | "AMOUNT_OUT_OF_RANGE" | "REFUND_EXCEEDS_AMOUNT" | "RATE_LIMITED" | "DISBURSEMENT_NOT_CONFIGURED" | "OPERATOR_UNAVAILABLE" | "INTERNAL_ERROR" | "IDEMPOTENCY_KEY_REUSED" | "OPERATOR_NOT_SUPPORTED" | "SERVICE_UNAVAILABLE";
        FieldIssue: {
            /** @example amount */
            field: string;
            /** @example must be an integer */
            issue: string;
        };
    };
    responses: {
        /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). INVALID_JSON: the body is not UTF-8 JSON. Nothing was changed. */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "VALIDATION_ERROR" | "INVALID_JSON";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description AUTHENTICATION_REQUIRED: an authentication header is missing. INVALID_API_KEY: the key is unknown or revoked. INVALID_SIGNATURE: the signature does not match the timestamp and body. TIMESTAMP_OUT_OF_TOLERANCE: the timestamp is more than 300 s from our clock. REQUEST_REPLAYED: the same signed request was already received: sign every request anew, a retry in a later second. Nothing was changed. */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "AUTHENTICATION_REQUIRED" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "TIMESTAMP_OUT_OF_TOLERANCE" | "REQUEST_REPLAYED";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description MERCHANT_DISABLED: the merchant account is disabled. Nothing was changed. */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "MERCHANT_DISABLED";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description NOT_FOUND: no such id (unknown, another merchant's, or malformed alike). Nothing was changed. */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "NOT_FOUND";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description DUPLICATE_ORDER_ID: the merchant_order_id was used with other parameters. INVALID_STATE: only a SUCCESS cash-in can be refunded. INSUFFICIENT_BALANCE: the available balance cannot cover it. IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with another body. Nothing was changed. */
        Conflict: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "DUPLICATE_ORDER_ID" | "INVALID_STATE" | "INSUFFICIENT_BALANCE" | "IDEMPOTENCY_KEY_REUSED";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description PAYLOAD_TOO_LARGE: the body exceeds 64 KiB. Nothing was changed. */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "PAYLOAD_TOO_LARGE";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description UNSUPPORTED_MEDIA_TYPE: a body that is not application/json. Nothing was changed. */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "UNSUPPORTED_MEDIA_TYPE";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description COUNTRY_NOT_SUPPORTED: the country is not an active subsidiary, or cannot be told from the number. CURRENCY_MISMATCH: the currency is not the country's. AMOUNT_OUT_OF_RANGE: the amount is outside AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default). REFUND_EXCEEDS_AMOUNT: refunds not FAILED would exceed the amount. OPERATOR_NOT_SUPPORTED: no enabled operator of the subsidiary serves the number (or the operator named has no account there). Nothing was changed. */
        Unprocessable: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "COUNTRY_NOT_SUPPORTED" | "CURRENCY_MISMATCH" | "AMOUNT_OUT_OF_RANGE" | "REFUND_EXCEEDS_AMOUNT" | "OPERATOR_NOT_SUPPORTED";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description RATE_LIMITED: the per-merchant limit (50 requests/s, bursts of 100), or, before authentication, too many failed authentications (401) from your address (100 a minute by default): wait Retry-After seconds. Nothing was changed. */
        RateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "RATE_LIMITED";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description INTERNAL_ERROR: nothing is known to have changed: read the resource back, or retry (cash-ins and cash-outs are idempotent on merchant_order_id). */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "INTERNAL_ERROR";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description DISBURSEMENT_NOT_CONFIGURED: cash-out is off; nothing was written or debited. */
        NotImplemented: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "DISBURSEMENT_NOT_CONFIGURED";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
        /** @description OPERATOR_UNAVAILABLE: the operator's account is disabled or marked down and nothing was written: retry after Retry-After seconds. SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    error: {
                        /** @enum {string} */
                        code: "OPERATOR_UNAVAILABLE" | "SERVICE_UNAVAILABLE";
                        /** @description For people; may change. Program against `code`. */
                        message: string;
                        /** @description With VALIDATION_ERROR: one entry per problem. */
                        details?: components["schemas"]["FieldIssue"][];
                        /** @description The X-Request-Id of the response; quote it to support. */
                        request_id: string;
                    };
                };
            };
        };
    };
    parameters: {
        /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
        RequestSignature: string;
    };
    requestBodies: never;
    headers: {
        /** @description Identifies the request in our logs. Yours is kept when you send a sane one (1-100 characters of [A-Za-z0-9._-]). */
        RequestId: string;
        /** @description Requests per second allowed to the merchant, sustained. */
        RateLimitLimit: string;
        /** @description Requests left in the current second. */
        RateLimitRemaining: string;
        /** @description Seconds until the window resets. */
        RateLimitReset: string;
        /** @description Seconds to wait before the next request. */
        RetryAfter: string;
        /** @description true: this answer is the record an earlier request created (same merchant_order_id or Idempotency-Key, same parameters); nothing new was done. */
        IdempotentReplayed: "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createCashin: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CashinRequest"];
            };
        };
        responses: {
            /** @description The same order again: the existing transaction, in its current state. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CashinTransaction"];
                    };
                };
            };
            /** @description Accepted: the push is on its way (or acknowledged). */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CashinTransaction"];
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). INVALID_JSON: the body is not UTF-8 JSON. Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR" | "INVALID_JSON";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description DUPLICATE_ORDER_ID: the merchant_order_id was used with other parameters. Nothing was changed. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "DUPLICATE_ORDER_ID";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description COUNTRY_NOT_SUPPORTED: the country is not an active subsidiary, or cannot be told from the number. CURRENCY_MISMATCH: the currency is not the country's. AMOUNT_OUT_OF_RANGE: the amount is outside AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default). OPERATOR_NOT_SUPPORTED: no enabled operator of the subsidiary serves the number (or the operator named has no account there). Nothing was changed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "COUNTRY_NOT_SUPPORTED" | "CURRENCY_MISMATCH" | "AMOUNT_OUT_OF_RANGE" | "OPERATOR_NOT_SUPPORTED";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description OPERATOR_UNAVAILABLE: the operator's account is disabled or marked down and nothing was written: retry after Retry-After seconds. SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "OPERATOR_UNAVAILABLE" | "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createCashout: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CashoutRequest"];
            };
        };
        responses: {
            /** @description The same order again: the existing cash-out. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Cashout"];
                    };
                };
            };
            /** @description Accepted: reserved, and sent or awaiting approval. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Cashout"];
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). INVALID_JSON: the body is not UTF-8 JSON. Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR" | "INVALID_JSON";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description DUPLICATE_ORDER_ID: the merchant_order_id was used with other parameters. INSUFFICIENT_BALANCE: the available balance cannot cover it. Nothing was changed. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "DUPLICATE_ORDER_ID" | "INSUFFICIENT_BALANCE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description COUNTRY_NOT_SUPPORTED: the country is not an active subsidiary, or cannot be told from the number. CURRENCY_MISMATCH: the currency is not the country's. AMOUNT_OUT_OF_RANGE: the amount is outside AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default). OPERATOR_NOT_SUPPORTED: no enabled operator of the subsidiary serves the number (or the operator named has no account there). Nothing was changed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "COUNTRY_NOT_SUPPORTED" | "CURRENCY_MISMATCH" | "AMOUNT_OUT_OF_RANGE" | "OPERATOR_NOT_SUPPORTED";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            501: components["responses"]["NotImplemented"];
            /** @description OPERATOR_UNAVAILABLE: the operator's account is disabled or marked down and nothing was written: retry after Retry-After seconds. SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "OPERATOR_UNAVAILABLE" | "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path: {
                /** @description The transaction_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transaction. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Transaction"];
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description AUTHENTICATION_REQUIRED: an authentication header is missing. INVALID_API_KEY: the key is unknown or revoked. INVALID_SIGNATURE: the signature does not match the timestamp and body. TIMESTAMP_OUT_OF_TOLERANCE: the timestamp is more than 300 s from our clock. Nothing was changed. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "AUTHENTICATION_REQUIRED" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "TIMESTAMP_OUT_OF_TOLERANCE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body answers 200 with the same refund; with another body 409 IDEMPOTENCY_KEY_REUSED. */
                "Idempotency-Key"?: string;
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefundRequest"];
            };
        };
        responses: {
            /** @description The same Idempotency-Key and body again: the existing refund. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Refund"];
                    };
                };
            };
            /** @description Accepted: the refund is PENDING. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Refund"];
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). INVALID_JSON: the body is not UTF-8 JSON. Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR" | "INVALID_JSON";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description INVALID_STATE: only a SUCCESS cash-in can be refunded. INSUFFICIENT_BALANCE: the available balance cannot cover it. IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with another body. Nothing was changed. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "INVALID_STATE" | "INSUFFICIENT_BALANCE" | "IDEMPOTENCY_KEY_REUSED";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description REFUND_EXCEEDS_AMOUNT: refunds not FAILED would exceed the amount. Nothing was changed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "REFUND_EXCEEDS_AMOUNT";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path: {
                /** @description The refund_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The refund. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Refund"];
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description AUTHENTICATION_REQUIRED: an authentication header is missing. INVALID_API_KEY: the key is unknown or revoked. INVALID_SIGNATURE: the signature does not match the timestamp and body. TIMESTAMP_OUT_OF_TOLERANCE: the timestamp is more than 300 s from our clock. Nothing was changed. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "AUTHENTICATION_REQUIRED" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "TIMESTAMP_OUT_OF_TOLERANCE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listPaymentLinks: {
        parameters: {
            query?: {
                /** @description Only links in this status. */
                status?: components["schemas"]["PaymentLinkStatus"];
                limit?: number;
                /** @description The payment_link_id of the last link of the previous page. */
                starting_after?: string;
            };
            header?: {
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The links. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PaymentLink"][];
                        /** @description More links follow the last one of data. */
                        has_more: boolean;
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description AUTHENTICATION_REQUIRED: an authentication header is missing. INVALID_API_KEY: the key is unknown or revoked. INVALID_SIGNATURE: the signature does not match the timestamp and body. TIMESTAMP_OUT_OF_TOLERANCE: the timestamp is more than 300 s from our clock. Nothing was changed. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "AUTHENTICATION_REQUIRED" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "TIMESTAMP_OUT_OF_TOLERANCE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    createPaymentLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body answers 200 with the same link, in its state now; with another body 409 IDEMPOTENCY_KEY_REUSED. */
                "Idempotency-Key"?: string;
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentLinkRequest"];
            };
        };
        responses: {
            /** @description The same Idempotency-Key and body again: the link the first request made, in its state now. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PaymentLink"];
                    };
                };
            };
            /** @description Created: the link, ACTIVE. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PaymentLink"];
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). INVALID_JSON: the body is not UTF-8 JSON. Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR" | "INVALID_JSON";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with another body. Nothing was changed. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "IDEMPOTENCY_KEY_REUSED";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description COUNTRY_NOT_SUPPORTED: the country is not an active subsidiary, or cannot be told from the number. AMOUNT_OUT_OF_RANGE: the amount is outside AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default). Nothing was changed. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "COUNTRY_NOT_SUPPORTED" | "AMOUNT_OUT_OF_RANGE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getPaymentLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path: {
                /** @description The payment_link_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PaymentLink"];
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description AUTHENTICATION_REQUIRED: an authentication header is missing. INVALID_API_KEY: the key is unknown or revoked. INVALID_SIGNATURE: the signature does not match the timestamp and body. TIMESTAMP_OUT_OF_TOLERANCE: the timestamp is more than 300 s from our clock. Nothing was changed. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "AUTHENTICATION_REQUIRED" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "TIMESTAMP_OUT_OF_TOLERANCE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    deactivatePaymentLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path: {
                /** @description The payment_link_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The id of the link in the path (recommended): the signature covers the body, not the path, so two deactivations of {} signed in the same second are one request to the replay guard.
                     */
                    payment_link_id?: string;
                };
            };
        };
        responses: {
            /** @description The link, INACTIVE. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PaymentLink"];
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). INVALID_JSON: the body is not UTF-8 JSON. Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR" | "INVALID_JSON";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listBalances: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The balances. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Balance"][];
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description AUTHENTICATION_REQUIRED: an authentication header is missing. INVALID_API_KEY: the key is unknown or revoked. INVALID_SIGNATURE: the signature does not match the timestamp and body. TIMESTAMP_OUT_OF_TOLERANCE: the timestamp is more than 300 s from our clock. Nothing was changed. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "AUTHENTICATION_REQUIRED" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "TIMESTAMP_OUT_OF_TOLERANCE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    exportTransactions: {
        parameters: {
            query: {
                date_from: string;
                date_to: string;
                country_code?: string;
                format?: "json" | "csv";
            };
            header?: {
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rows: JSON by default, CSV (as an attachment) with format=csv. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    /** @description With format=csv: attachment; filename="transactions_<date_from>_<date_to>.csv". */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExportRow"][];
                        meta: components["schemas"]["ExportMeta"];
                    };
                    "text/csv": string;
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description AUTHENTICATION_REQUIRED: an authentication header is missing. INVALID_API_KEY: the key is unknown or revoked. INVALID_SIGNATURE: the signature does not match the timestamp and body. TIMESTAMP_OUT_OF_TOLERANCE: the timestamp is more than 300 s from our clock. Nothing was changed. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "AUTHENTICATION_REQUIRED" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "TIMESTAMP_OUT_OF_TOLERANCE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    listWebhookEvents: {
        parameters: {
            query?: {
                /** @description Only the events of this transaction. */
                transaction_id?: string;
                limit?: number;
            };
            header?: {
                /** @description Optional, recommended (the SDK sends it on every request); checked when present: a wrong one is 401 INVALID_SIGNATURE, an absent one changes nothing. X-Service-Signature covers only the timestamp and the body, so a GET signature is valid for every GET during the 300 s window; this one also covers the method and the target. Lowercase hex HMAC-SHA256, keyed with the API secret, of: the X-Service-Timestamp string, a line feed (\n), the method in capitals, a line feed, the request target exactly as sent on the request line (the path from the root, /api/v1 included, then ? and the query string if there is one, percent-encoding as sent, no scheme, host or fragment), a line feed, then the exact body bytes (none for a GET). Example: printf '%s\nGET\n%s\n' "$TS" "/api/v1/balances" | openssl dgst -sha256 -hmac "$SECRET" -hex. */
                "X-Service-Request-Signature"?: components["parameters"]["RequestSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookEvent"][];
                    };
                };
            };
            /** @description VALIDATION_ERROR: a field is missing, of the wrong type or out of range, or unknown (`details` names each). Nothing was changed. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "VALIDATION_ERROR";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            /** @description AUTHENTICATION_REQUIRED: an authentication header is missing. INVALID_API_KEY: the key is unknown or revoked. INVALID_SIGNATURE: the signature does not match the timestamp and body. TIMESTAMP_OUT_OF_TOLERANCE: the timestamp is more than 300 s from our clock. Nothing was changed. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "AUTHENTICATION_REQUIRED" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "TIMESTAMP_OUT_OF_TOLERANCE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            /** @description SERVICE_UNAVAILABLE: the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "SERVICE_UNAVAILABLE";
                            /** @description For people; may change. Program against `code`. */
                            message: string;
                            /** @description With VALIDATION_ERROR: one entry per problem. */
                            details?: components["schemas"]["FieldIssue"][];
                            /** @description The X-Request-Id of the response; quote it to support. */
                            request_id: string;
                        };
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                        info: Record<string, never>;
                        paths: Record<string, never>;
                    };
                };
            };
        };
    };
    transactionStatusChanged: {
        parameters: {
            query?: never;
            header: {
                /** @description Unix time of sending, in seconds. Refuse (401) a timestamp more than 300 s from your clock. */
                "X-Service-Timestamp": string;
                /** @description Lowercase hex HMAC-SHA256, keyed with the secret of your newest active API key, of X-Service-Timestamp immediately followed by the raw body. Recompute it over the bytes received and compare in constant time. */
                "X-Service-Signature": string;
                /** @description The event_id of the body: the same on every retry of one event. */
                "X-Service-Event-Id": string;
                /** @description Service-Webhook/1.0 */
                "User-Agent": "Service-Webhook/1.0";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransactionStatusChangedEvent"];
            };
        };
        responses: {
            /** @description Signature or timestamp refused: retried on the schedule, so a clock or secret problem can be fixed in time. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received (answer before processing). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    refundStatusChanged: {
        parameters: {
            query?: never;
            header: {
                /** @description Unix time of sending, in seconds. Refuse (401) a timestamp more than 300 s from your clock. */
                "X-Service-Timestamp": string;
                /** @description Lowercase hex HMAC-SHA256, keyed with the secret of your newest active API key, of X-Service-Timestamp immediately followed by the raw body. Recompute it over the bytes received and compare in constant time. */
                "X-Service-Signature": string;
                /** @description The event_id of the body: the same on every retry of one event. */
                "X-Service-Event-Id": string;
                /** @description Service-Webhook/1.0 */
                "User-Agent": "Service-Webhook/1.0";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefundStatusChangedEvent"];
            };
        };
        responses: {
            /** @description Signature or timestamp refused: retried on the schedule, so a clock or secret problem can be fixed in time. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received (answer before processing). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
