/**
 * The Cash-outs area's texts (the list, the request form, one cash-out), in English and French. The
 * search's labels and messages are the payment search's (i18n/payments.ts): it is the same search.
 */
import { defineMessages } from './messages.js';

const en = {
  title: 'Cash-outs',
  intro: 'A cash-out pays money from your available balance to a mobile-money wallet.',
  balancesTitle: 'Available to pay out',
  balanceCountry: 'Country',
  balanceAvailable: 'Available',
  requestTitle: 'Request a cash-out',
  requestHelp:
    'The country and its currency come from the number. The amount is held from the available balance of that country as soon as the cash-out is accepted.',
  approvalHelp:
    'A large cash-out, or one that takes the day’s total (yours, or to one number) above our limits, waits for our approval before it is sent.',
  disabledTitle: 'Cash-outs are not available',
  disabled:
    'Cash-outs are not turned on for this service: no payout with the operators is set up yet. Contact us to have them turned on; nothing can be requested here until then.',
  beneficiary: 'Recipient number (international form)',
  amount: 'Amount (francs)',
  reason: 'Reason shown to the recipient where the operator allows it (optional, at most 255 characters)',
  operator: 'Operator',
  reasonField: 'Reason',
  amountField: 'Amount',
  operatorAuto: 'Chosen from the number',
  stepUpCode: 'The current 6-digit code of your authenticator app',
  submit: 'Request the cash-out',
  listTitle: 'Your cash-outs',
  recipient: 'Recipient',
  noOlder: 'No older cash-outs.',
  noResults: 'No cash-out matches.',
  noResultsBeyond: 'No cash-out matches beyond this page.',
  awaitingApproval: 'Waiting for our approval',
  awaitingApprovalHelp:
    'This cash-out waits for our team’s approval before it is sent to the operator. Its amount stays held from your balance meanwhile; if we decline it, it becomes FAILED and the amount is released.',
  declined: 'Declined by us',
  back: '← Cash-outs',
  cashout: 'Cash-out',
  id: 'Id',
  orderId: 'Order id',
  status: 'Status',
  country: 'Country',
  failureCode: 'Failure code',
  failureReason: 'Failure reason',
  created: 'Created',
  updated: 'Updated',
  completed: 'Completed',
  history: 'History',
  when: 'When',
  change: 'Change',
  cause: 'Cause',
  fullHistory: 'Operator details and webhooks of this cash-out',
  requested: 'Cash-out requested.',
  alreadySent: 'This form was already sent: here is the cash-out it requested.',
  errForm: 'The form could not be read. Reload the page and try again.',
  errAmount: 'The amount is a whole number of francs, above 0.',
  errNumber: 'Enter the whole recipient number in international form with its country code, like +2250707000001.',
  errReason: 'The reason is at most 255 characters.',
  errOperator: 'Unknown operator.',
  errCountry: 'Cash-outs go only to numbers of a country where we operate.',
  errAmountRange: 'The amount must be between {min} and {max} francs.',
  errBalance: 'Your available balance in this country cannot cover the cash-out. Nothing was held.',
  errOperatorNotSupported: 'No operator we work with in this country serves this number.',
  errOperatorUnavailable: 'The operator of this number cannot take payments right now. Try again in a few minutes.',
  errDisabled: 'Cash-outs are not turned on for this service: nothing was requested.',
  errWrongCode: 'This code is not valid. Type the current code of your authenticator app.',
  errNoTwoFactor:
    'A cash-out asks for a code of your authenticator app: set up two-factor sign-in in "My account" first.',
} as const;

type Keys = keyof typeof en;

const fr: Readonly<Record<Keys, string>> = {
  title: 'Décaissements',
  intro: 'Un décaissement verse de l’argent de votre solde disponible vers un portefeuille mobile money.',
  balancesTitle: 'Disponible pour décaisser',
  balanceCountry: 'Pays',
  balanceAvailable: 'Disponible',
  requestTitle: 'Demander un décaissement',
  requestHelp:
    'Le pays et sa devise viennent du numéro. Le montant est réservé sur le solde disponible de ce pays dès que le décaissement est accepté.',
  approvalHelp:
    'Un décaissement important, ou qui porte le total du jour (le vôtre, ou vers un même numéro) au-delà de nos limites, attend notre validation avant d’être envoyé.',
  disabledTitle: 'Les décaissements ne sont pas disponibles',
  disabled:
    'Les décaissements ne sont pas activés sur ce service : aucun versement n’est encore configuré avec les opérateurs. Contactez-nous pour les activer ; rien ne peut être demandé ici d’ici là.',
  beneficiary: 'Numéro du bénéficiaire (format international)',
  amount: 'Montant (francs)',
  reason: 'Motif montré au bénéficiaire quand l’opérateur le permet (facultatif, 255 caractères au plus)',
  operator: 'Opérateur',
  reasonField: 'Motif',
  amountField: 'Montant',
  operatorAuto: 'Choisi d’après le numéro',
  stepUpCode: "Le code actuel à 6 chiffres de votre application d'authentification",
  submit: 'Demander le décaissement',
  listTitle: 'Vos décaissements',
  recipient: 'Bénéficiaire',
  noOlder: 'Aucun décaissement plus ancien.',
  noResults: 'Aucun décaissement ne correspond.',
  noResultsBeyond: 'Aucun décaissement ne correspond au-delà de cette page.',
  awaitingApproval: 'En attente de notre validation',
  awaitingApprovalHelp:
    'Ce décaissement attend la validation de notre équipe avant d’être envoyé à l’opérateur. Son montant reste réservé sur votre solde en attendant ; si nous le refusons, il passe FAILED et le montant est libéré.',
  declined: 'Refusé par nous',
  back: '← Décaissements',
  cashout: 'Décaissement',
  id: 'Identifiant',
  orderId: 'Commande',
  status: 'Statut',
  country: 'Pays',
  failureCode: "Code d'échec",
  failureReason: "Motif d'échec",
  created: 'Créé',
  updated: 'Mis à jour',
  completed: 'Terminé',
  history: 'Historique',
  when: 'Quand',
  change: 'Changement',
  cause: 'Cause',
  fullHistory: 'Détails opérateur et webhooks de ce décaissement',
  requested: 'Décaissement demandé.',
  alreadySent: 'Ce formulaire a déjà été envoyé : voici le décaissement demandé.',
  errForm: "Le formulaire n'a pas pu être lu. Rechargez la page et réessayez.",
  errAmount: 'Le montant est un nombre entier de francs, supérieur à 0.',
  errNumber:
    'Saisissez le numéro entier du bénéficiaire au format international avec son indicatif, par exemple +2250707000001.',
  errReason: 'Le motif fait au plus 255 caractères.',
  errOperator: 'Opérateur inconnu.',
  errCountry: 'Les décaissements ne vont qu’à des numéros d’un pays où nous opérons.',
  errAmountRange: 'Le montant doit être compris entre {min} et {max} francs.',
  errBalance: 'Votre solde disponible dans ce pays ne couvre pas le décaissement. Rien n’a été réservé.',
  errOperatorNotSupported: 'Aucun opérateur avec lequel nous travaillons dans ce pays ne dessert ce numéro.',
  errOperatorUnavailable:
    "L'opérateur de ce numéro ne peut pas prendre de paiement pour le moment. Réessayez dans quelques minutes.",
  errDisabled: 'Les décaissements ne sont pas activés sur ce service : rien n’a été demandé.',
  errWrongCode: "Ce code n'est pas valide. Saisissez le code actuel de votre application d'authentification.",
  errNoTwoFactor:
    "Un décaissement demande un code de votre application d'authentification : activez d'abord la connexion en deux étapes dans « Mon compte ».",
};

export const cashoutsText = defineMessages<Keys>(en, fr);
export type CashoutsText = ReturnType<typeof cashoutsText>;
