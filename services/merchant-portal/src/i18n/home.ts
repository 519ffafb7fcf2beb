/** The home page's figures and charts, in English and French. */
import type { FailureCode } from '@mm/domain';
import type { Locale } from './locale.js';
import { defineMessages } from './messages.js';

export const homeText = defineMessages(
  {
    activityTitle: 'Collections, last 30 days',
    activityHelp:
      'Your cash-ins by the UTC day they were created, today included. A payment still in progress counts in no success rate until it ends.',
    collectedChart: 'Collected per day ({currency})',
    collectedDesc:
      'Bar chart: amount collected each day from {first} to {last}, in {currency}. Highest day: {max}. Total: {total}.',
    countChart: 'Successful payments per day',
    countDesc:
      'Bar chart: number of successful payments each day from {first} to {last}. Highest day: {max}. Total: {total}.',
    rateChart: 'Success rate per day',
    rateDesc:
      'Bar chart: share of the day’s finished payments that succeeded, from {first} to {last}. Over the 30 days: {rate}. Days with no finished payment have no bar.',
    noRate: 'no finished payment',
    dataTable: 'The figures, day by day',
    day: 'Day (UTC)',
    succeeded: 'Succeeded',
    unsuccessful: 'Failed or expired',
    inFlight: 'In progress',
    rate: 'Success rate',
    collected: 'Collected ({currency})',
    total: 'Total',
    noActivity: 'No payment in the last 30 days.',
    failuresTitle: 'Failures by reason',
    failuresDesc: 'Bar chart: failed payments of the last 30 days by reason. {total} in all.',
    noFailures: 'No failed payment in the last 30 days.',
    reason: 'Reason',
    code: 'Code',
    count: 'Payments',
    share: 'Share',
    operatorsTitle: 'Share by operator',
    operatorsDesc: 'Bar chart: successful payments of the last 30 days by operator. {total} in all.',
    noOperators: 'No successful payment in the last 30 days.',
    operator: 'Operator',
    amount: 'Amount',
  },
  {
    activityTitle: 'Encaissements, 30 derniers jours',
    activityHelp:
      "Vos encaissements par jour UTC de création, aujourd'hui compris. Un paiement encore en cours ne compte dans aucun taux de réussite tant qu'il n'est pas terminé.",
    collectedChart: 'Encaissé par jour ({currency})',
    collectedDesc:
      'Graphique en barres : montant encaissé chaque jour du {first} au {last}, en {currency}. Jour le plus haut : {max}. Total : {total}.',
    countChart: 'Paiements réussis par jour',
    countDesc:
      'Graphique en barres : nombre de paiements réussis chaque jour du {first} au {last}. Jour le plus haut : {max}. Total : {total}.',
    rateChart: 'Taux de réussite par jour',
    rateDesc:
      'Graphique en barres : part des paiements terminés du jour qui ont réussi, du {first} au {last}. Sur les 30 jours : {rate}. Les jours sans paiement terminé n’ont pas de barre.',
    noRate: 'aucun paiement terminé',
    dataTable: 'Les chiffres, jour par jour',
    day: 'Jour (UTC)',
    succeeded: 'Réussis',
    unsuccessful: 'Échoués ou expirés',
    inFlight: 'En cours',
    rate: 'Taux de réussite',
    collected: 'Encaissé ({currency})',
    total: 'Total',
    noActivity: 'Aucun paiement ces 30 derniers jours.',
    failuresTitle: 'Échecs par motif',
    failuresDesc: 'Graphique en barres : paiements échoués des 30 derniers jours par motif. {total} en tout.',
    noFailures: 'Aucun paiement échoué ces 30 derniers jours.',
    reason: 'Motif',
    code: 'Code',
    count: 'Paiements',
    share: 'Part',
    operatorsTitle: 'Répartition par opérateur',
    operatorsDesc: 'Graphique en barres : paiements réussis des 30 derniers jours par opérateur. {total} en tout.',
    noOperators: 'Aucun paiement réussi ces 30 derniers jours.',
    operator: 'Opérateur',
    amount: 'Montant',
  },
);

export type HomeText = ReturnType<typeof homeText>;

const FAILURE_LABELS: Record<Locale, Record<FailureCode, string>> = {
  en: {
    INSUFFICIENT_BALANCE: 'The customer’s balance was too low',
    INVALID_SECRET_CODE: 'Wrong secret code typed by the customer',
    THRESHOLD_REACHED: 'The customer’s wallet limit was reached',
    CUSTOMER_DID_NOT_VALIDATE: 'The customer did not confirm',
    OPERATOR_REJECTED: 'Refused by the operator',
    OPERATOR_UNAVAILABLE: 'The operator was unavailable',
    REJECTED_BY_APPROVER: 'Rejected by an approver',
    UNKNOWN: 'Reason not given by the operator',
    PAYER_NOT_FOUND: 'No wallet at this operator for the number',
  },
  fr: {
    INSUFFICIENT_BALANCE: 'Solde du client insuffisant',
    INVALID_SECRET_CODE: 'Code secret erroné saisi par le client',
    THRESHOLD_REACHED: 'Plafond du portefeuille du client atteint',
    CUSTOMER_DID_NOT_VALIDATE: "Le client n'a pas confirmé",
    OPERATOR_REJECTED: "Refusé par l'opérateur",
    OPERATOR_UNAVAILABLE: 'Opérateur indisponible',
    REJECTED_BY_APPROVER: 'Rejeté par un approbateur',
    UNKNOWN: "Motif non donné par l'opérateur",
    PAYER_NOT_FOUND: 'Aucun portefeuille chez cet opérateur pour ce numéro',
  },
};

/** A failure code's label; a code added since (not known here) shows as itself. */
export function failureLabel(locale: Locale, code: string): string {
  return (FAILURE_LABELS[locale] as Record<string, string>)[code] ?? code;
}
