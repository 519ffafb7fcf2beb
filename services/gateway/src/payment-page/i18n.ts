export type Lang = 'fr' | 'en';

export const LANGS: readonly Lang[] = ['fr', 'en'];
export const DEFAULT_LANG: Lang = 'fr';

/**
 * Picks fr or en from an Accept-Language header: the highest q wins, the earlier entry on a tie,
 * "*" stands for the default (French). Anything unparsable or absent is French.
 */
export function negotiateLang(header: string | undefined | null): Lang {
  if (!header) return DEFAULT_LANG;
  let best: { lang: Lang; q: number } | null = null;
  for (const part of header.split(',').slice(0, 20)) {
    const [rawTag, ...params] = part.trim().split(';');
    const tag = (rawTag ?? '').trim().toLowerCase();
    if (!tag) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
      else if (/^\s*q\s*=/i.test(p)) q = 0;
    }
    if (!(q > 0) || q > 1) continue;
    const primary = tag.split('-')[0];
    const lang: Lang | null =
      primary === '*' ? DEFAULT_LANG : (LANGS as readonly string[]).includes(primary ?? '') ? (primary as Lang) : null;
    if (lang && (!best || q > best.q)) best = { lang, q };
  }
  return best?.lang ?? DEFAULT_LANG;
}

export interface Messages {
  htmlTitle(merchant: string): string;
  payTo: string;
  amount: string;
  phone: string;
  motif: string;
  instruction: string;
  expiresIn: string;
  statusTitle: Record<'SENDING' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'EXPIRED' | 'REVERSED', string>;
  statusDetail: Record<'SENDING' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'EXPIRED' | 'REVERSED', string>;
  failure: Record<string, string>;
  returnTo(merchant: string): string;
  redirecting: string;
  notFoundTitle: string;
  notFoundText: string;
  /** A redirect operator: the call to action taking the customer to the operator's page. */
  payWith(operator: string): string;
  redirectIntro: string;
  /** The name of an operator the page has none for. */
  yourOperator: string;
  /** A one-time-code operator: dial the USSD code, then type the code it gives. */
  otpDial: string;
  otpThen: string;
  codeLabel: string;
  codeSubmit: string;
  codeNotice: Record<CodeNotice, string>;
}

/** What the page says after a code was posted (POST /pay/:id/code redirects back with ?code=<notice>). */
export type CodeNotice = 'sent' | 'invalid' | 'attempts' | 'closed' | 'unavailable';
export const CODE_NOTICES: readonly CodeNotice[] = ['sent', 'invalid', 'attempts', 'closed', 'unavailable'];

/** Operators' names as customers know them (transaction.operator); the simulator and others read "your operator". */
const OPERATOR_NAMES: Record<string, string> = { ORANGE: 'Orange Money', WAVE: 'Wave', MTN: 'MTN MoMo' };

export function operatorName(lang: Lang, operator: string): string {
  return OPERATOR_NAMES[operator] ?? MESSAGES[lang].yourOperator;
}

export const MESSAGES: Record<Lang, Messages> = {
  fr: {
    htmlTitle: (m) => `Paiement à ${m}`,
    payTo: 'Paiement à',
    amount: 'Montant',
    phone: 'Numéro',
    motif: 'Motif',
    instruction: 'Composez votre code secret sur votre téléphone pour confirmer le paiement.',
    expiresIn: 'Temps restant pour confirmer :',
    statusTitle: {
      SENDING: 'Envoi de la demande…',
      PENDING: 'En attente de votre confirmation',
      SUCCESS: 'Paiement réussi',
      FAILED: 'Paiement échoué',
      EXPIRED: 'Délai dépassé',
      REVERSED: 'Paiement remboursé',
    },
    statusDetail: {
      SENDING: 'La demande de paiement est envoyée à votre téléphone.',
      PENDING: 'Vérifiez votre téléphone.',
      SUCCESS: 'Votre paiement est confirmé. Merci !',
      FAILED: 'Le paiement n’a pas abouti.',
      EXPIRED: 'Le délai de confirmation est dépassé ; le paiement n’a pas été effectué.',
      REVERSED: 'Ce paiement vous a été remboursé.',
    },
    failure: {
      INSUFFICIENT_BALANCE: 'Solde insuffisant.',
      INVALID_SECRET_CODE: 'Code secret incorrect.',
      THRESHOLD_REACHED: 'Plafond de transactions atteint.',
      CUSTOMER_DID_NOT_VALIDATE: 'Paiement annulé depuis votre téléphone.',
      OPERATOR_REJECTED: 'Paiement refusé par l’opérateur.',
      OPERATOR_UNAVAILABLE: 'Service de l’opérateur momentanément indisponible.',
      REJECTED_BY_APPROVER: 'Refusé lors de la vérification.',
      UNKNOWN: 'Raison inconnue.',
    },
    returnTo: (m) => `Retour chez ${m}`,
    redirecting: 'Redirection dans quelques secondes…',
    notFoundTitle: 'Paiement introuvable',
    notFoundText: 'Ce lien de paiement n’existe pas. Vérifiez l’adresse ou contactez le marchand.',
    payWith: (o) => `Payer avec ${o}`,
    redirectIntro: 'Le paiement se fait sur la page de votre opérateur ; vous reviendrez ensuite ici.',
    yourOperator: 'votre opérateur',
    otpDial: 'Composez ce code sur votre téléphone pour obtenir un code à usage unique :',
    otpThen: 'Puis saisissez le code reçu ci-dessous.',
    codeLabel: 'Code à usage unique (4 à 8 chiffres)',
    codeSubmit: 'Valider le code',
    codeNotice: {
      sent: 'Code envoyé. En attente de la confirmation de l’opérateur.',
      invalid: 'Le code doit comporter 4 à 8 chiffres.',
      attempts: 'Trop de tentatives : ce paiement n’accepte plus de code.',
      closed: 'Ce paiement n’attend plus de code.',
      unavailable: 'Le code n’a pas pu être pris pour l’instant : réessayez dans un moment.',
    },
  },
  en: {
    htmlTitle: (m) => `Payment to ${m}`,
    payTo: 'Payment to',
    amount: 'Amount',
    phone: 'Number',
    motif: 'Reference',
    instruction: 'Enter your secret code on your phone to confirm the payment.',
    expiresIn: 'Time left to confirm:',
    statusTitle: {
      SENDING: 'Sending the request…',
      PENDING: 'Waiting for your confirmation',
      SUCCESS: 'Payment successful',
      FAILED: 'Payment failed',
      EXPIRED: 'Time is up',
      REVERSED: 'Payment refunded',
    },
    statusDetail: {
      SENDING: 'The payment request is being sent to your phone.',
      PENDING: 'Check your phone.',
      SUCCESS: 'Your payment is confirmed. Thank you!',
      FAILED: 'The payment did not go through.',
      EXPIRED: 'The confirmation delay has passed; the payment was not made.',
      REVERSED: 'This payment was refunded to you.',
    },
    failure: {
      INSUFFICIENT_BALANCE: 'Insufficient balance.',
      INVALID_SECRET_CODE: 'Wrong secret code.',
      THRESHOLD_REACHED: 'Transaction limit reached.',
      CUSTOMER_DID_NOT_VALIDATE: 'Payment cancelled from your phone.',
      OPERATOR_REJECTED: 'Payment rejected by the operator.',
      OPERATOR_UNAVAILABLE: 'The operator’s service is temporarily unavailable.',
      REJECTED_BY_APPROVER: 'Rejected in review.',
      UNKNOWN: 'Unknown reason.',
    },
    returnTo: (m) => `Back to ${m}`,
    redirecting: 'Redirecting in a few seconds…',
    notFoundTitle: 'Payment not found',
    notFoundText: 'This payment link does not exist. Check the address or contact the merchant.',
    payWith: (o) => `Pay with ${o}`,
    redirectIntro: 'You pay on your operator’s page, then come back here.',
    yourOperator: 'your operator',
    otpDial: 'Dial this code on your phone to get a one-time code:',
    otpThen: 'Then enter the code you received below.',
    codeLabel: 'One-time code (4 to 8 digits)',
    codeSubmit: 'Confirm the code',
    codeNotice: {
      sent: 'Code sent. Waiting for the operator’s confirmation.',
      invalid: 'The code must be 4 to 8 digits.',
      attempts: 'Too many attempts: this payment no longer takes a code.',
      closed: 'This payment is no longer waiting for a code.',
      unavailable: 'The code could not be taken just now: try again in a moment.',
    },
  },
};

export type PageState = keyof Messages['statusTitle'];

/** The customer-facing state of a transaction status; CREATED and INITIATED read as "sending". */
export function pageState(status: string): PageState {
  if (
    status === 'SUCCESS' ||
    status === 'FAILED' ||
    status === 'EXPIRED' ||
    status === 'REVERSED' ||
    status === 'PENDING'
  )
    return status;
  return 'SENDING';
}

export function failureText(lang: Lang, code: string | null | undefined): string {
  const f = MESSAGES[lang].failure;
  return (code && f[code]) || (f.UNKNOWN as string);
}
