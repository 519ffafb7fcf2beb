import type { Lang } from './i18n.js';

/** Why a link's page takes no payment now (its status, or BUSY: a single-use link being paid). */
export type LinkClosedReason = 'INACTIVE' | 'EXPIRED' | 'COMPLETED' | 'BUSY' | 'NOT_FOUND';

export interface LinkMessages {
  htmlTitle(merchant: string): string;
  payTo: string;
  amount: string;
  amountBetween(min: string, max: string): string;
  phone: string;
  phoneHint: string;
  operator: string;
  operatorAuto: string;
  submit: string;
  closedTitle: Record<LinkClosedReason, string>;
  closedText: Record<LinkClosedReason, string>;
  field: Record<'msisdn' | 'amount' | 'operator' | 'other', string>;
  tooMany: string;
  unavailable: string;
  failed: string;
}

export const LINK_MESSAGES: Record<Lang, LinkMessages> = {
  fr: {
    htmlTitle: (m) => `Payer ${m}`,
    payTo: 'Paiement à',
    amount: 'Montant',
    amountBetween: (min, max) => `Entre ${min} et ${max}`,
    phone: 'Votre numéro mobile money',
    phoneHint: 'Vous confirmerez le paiement sur ce téléphone.',
    operator: 'Payer avec',
    operatorAuto: 'L’opérateur de mon numéro',
    submit: 'Payer',
    closedTitle: {
      INACTIVE: 'Ce lien de paiement est désactivé',
      EXPIRED: 'Ce lien de paiement a expiré',
      COMPLETED: 'Ce lien de paiement a déjà été payé',
      BUSY: 'Ce lien est en cours de paiement',
      NOT_FOUND: 'Lien de paiement introuvable',
    },
    closedText: {
      INACTIVE: 'Le marchand ne prend plus de paiement par ce lien. Demandez-lui un nouveau lien.',
      EXPIRED: 'Ce lien ne prend plus de paiement. Demandez un nouveau lien au marchand.',
      COMPLETED: 'Ce lien ne prend qu’un paiement, et il a été fait. Rien ne vous a été débité.',
      BUSY: 'Un autre client est en train de payer avec ce lien. S’il n’aboutit pas, le lien sera de nouveau libre dans quelques minutes. Rien ne vous a été débité.',
      NOT_FOUND: 'Vérifiez l’adresse, ou demandez le lien au marchand.',
    },
    field: {
      msisdn: 'Ce numéro n’est pas un numéro mobile valide de ce pays.',
      amount: 'Saisissez un montant entier dans les limites indiquées.',
      operator: 'Choisissez un des opérateurs proposés.',
      other: 'Le paiement n’a pas pu être lancé. Vérifiez votre numéro.',
    },
    tooMany: 'Trop de tentatives. Réessayez dans une minute.',
    unavailable: 'Le paiement ne peut pas être lancé pour le moment. Réessayez dans quelques minutes.',
    failed: 'Une erreur est survenue de notre côté. Rien ne vous a été débité ; réessayez plus tard.',
  },
  en: {
    htmlTitle: (m) => `Pay ${m}`,
    payTo: 'Payment to',
    amount: 'Amount',
    amountBetween: (min, max) => `Between ${min} and ${max}`,
    phone: 'Your mobile money number',
    phoneHint: 'You will confirm the payment on this phone.',
    operator: 'Pay with',
    operatorAuto: 'The operator of my number',
    submit: 'Pay',
    closedTitle: {
      INACTIVE: 'This payment link is turned off',
      EXPIRED: 'This payment link has expired',
      COMPLETED: 'This payment link has already been paid',
      BUSY: 'This link is being paid',
      NOT_FOUND: 'Payment link not found',
    },
    closedText: {
      INACTIVE: 'The merchant takes no more payments through this link. Ask them for a new one.',
      EXPIRED: 'This link takes no more payments. Ask the merchant for a new one.',
      COMPLETED: 'This link takes one payment, and it has been made. Nothing was taken from you.',
      BUSY: 'Another customer is paying with this link right now. If their payment does not go through, the link is free again in a few minutes. Nothing was taken from you.',
      NOT_FOUND: 'Check the address, or ask the merchant for the link.',
    },
    field: {
      msisdn: 'This is not a valid mobile number of this country.',
      amount: 'Type a whole amount within the limits shown.',
      operator: 'Choose one of the operators offered.',
      other: 'The payment could not be started. Check your number.',
    },
    tooMany: 'Too many attempts. Try again in a minute.',
    unavailable: 'The payment cannot be started right now. Try again in a few minutes.',
    failed: 'Something went wrong on our side. Nothing was taken from you; try again later.',
  },
};
