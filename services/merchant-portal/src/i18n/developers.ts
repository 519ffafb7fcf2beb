/** The Developers area's texts: API keys, the webhook URL, the webhook event log. */
import { WEBHOOK_URL_CREDENTIALS_ERROR, WEBHOOK_URL_ERROR } from '@mm/collections';
import type { Locale } from './locale.js';
import { defineMessages } from './messages.js';

const en = {
  title: 'Developers',
  keys: 'API keys',
  keysIntro:
    'Your server signs each API request with a key and its secret. Several keys may work at once: roll a key to replace it without a gap.',
  key: 'Key',
  created: 'Created',
  lastUsed: 'Last used',
  lastUsedUnknown: 'not recorded',
  state: 'State',
  actions: 'Actions',
  active: 'Active',
  expires: 'Works until',
  revoked: 'Revoked',
  noKeys: 'No API key yet.',
  createKey: 'Create a key',
  roll: 'Roll',
  rollOverlap: 'The old key keeps working for',
  hours24: '24 hours',
  days7: '7 days',
  revoke: 'Revoke now',
  code: 'Authenticator code',
  codeHint: 'Each change asks for the current 6-digit code of your authenticator app.',
  newKey: 'New API key',
  keyRolled: 'Key rolled',
  secret: 'Secret',
  secretOnce:
    'Copy the secret now and keep it in your server’s secret store: it is shown this once and never again, here or anywhere.',
  oldKeyUntil: 'The old key {key} keeps working until {at}; deploy the new secret before then.',
  backToDevelopers: 'Back to Developers',
  webhook: 'Webhooks',
  webhookIntro:
    'We POST each payment’s final status to this address (or to the payment’s notify_url), signed with your newest active key’s secret.',
  webhookUrl: 'Default webhook URL',
  webhookUrlHint: 'An http:// or https:// address; leave empty to remove it (each payment then needs its notify_url).',
  noWebhookUrl: 'No default webhook URL.',
  save: 'Save',
  sendTest: 'Send a test event',
  sendTestHint:
    'Sends your newest payment event again, unchanged but with a new event_id, to the default URL, signed and retried like any event.',
  eventLog: 'Webhook event log',
  events: 'Webhook events',
  status: 'Status',
  eventType: 'Event',
  from: 'From (UTC)',
  to: 'Before (UTC)',
  any: 'Any',
  filter: 'Filter',
  transaction: 'Transaction',
  attempts: 'Attempts',
  lastAttempt: 'Last attempt',
  noEvents: 'No webhook event matches.',
  nextPage: 'Older events',
  event: 'Webhook event',
  target: 'Sent to',
  nextAttempt: 'Next attempt',
  delivered: 'Delivered',
  payload: 'Body',
  attemptNo: 'No.',
  at: 'At',
  statusCode: 'HTTP status',
  latency: 'Time (ms)',
  error: 'Error',
  success: 'Success',
  noAttempts: 'No attempt yet.',
  resend: 'Send again',
  resendHint: 'Only an abandoned event (every retry failed) can be sent again.',
  resendWindow: 'Send again every abandoned event of a time window',
  resendWindowHint: 'At most {n} events per click, oldest first.',
  done_revoked: 'The key is revoked: it stops working from the next request.',
  done_unchanged: 'Nothing changed.',
  done_url_saved: 'The default webhook URL is saved.',
  done_test_queued: 'The test event is queued for delivery; its attempts appear in the event log.',
  resent: '{resent} event(s) sent again, {skipped} not (not abandoned any more).',
  badCode: 'Type the current 6-digit code of your authenticator app.',
  wrongCode: 'This code is not valid (or was already used). Type the current code of your authenticator app.',
  noTwoFactor: 'Set up two-factor sign-in in “My account” first: changes here ask for an authenticator code.',
  badGrace: 'Choose how long the old key keeps working: 24 hours or 7 days.',
  notActive: 'Only an active key can be rolled; this one is revoked or already being replaced (revoke it instead).',
  badUrlField: 'The webhook URL could not be read.',
  noUrl: 'Set a default webhook URL first: a test event is sent there.',
  noEvent:
    'There is no payment event to send yet: make a payment reach a final status first (in the sandbox, a number ending in 01 succeeds).',
  badFilter: 'These filters could not be read: choose a status and event from the lists, and dates as YYYY-MM-DD.',
  badWindow: 'Give the window as two dates and times, the first before the second.',
  notAbandoned: 'This event is not abandoned: it was delivered, or its retries are still running.',
  webhookUrlError:
    'The default webhook URL must be a full http:// or https:// address, such as https://shop.example/webhooks (2048 characters at most).',
  webhookUrlCredentials: 'The default webhook URL must not contain a user name or password.',
} as const;

type Keys = keyof typeof en;

const fr: Readonly<Record<Keys, string>> = {
  title: 'Développeurs',
  keys: 'Clés API',
  keysIntro:
    'Votre serveur signe chaque requête à l’API avec une clé et son secret. Plusieurs clés peuvent fonctionner à la fois : renouvelez une clé pour la remplacer sans interruption.',
  key: 'Clé',
  created: 'Créée',
  lastUsed: 'Dernière utilisation',
  lastUsedUnknown: 'non enregistrée',
  state: 'État',
  actions: 'Actions',
  active: 'Active',
  expires: 'Fonctionne jusqu’au',
  revoked: 'Révoquée',
  noKeys: 'Aucune clé API pour l’instant.',
  createKey: 'Créer une clé',
  roll: 'Renouveler',
  rollOverlap: 'L’ancienne clé fonctionne encore pendant',
  hours24: '24 heures',
  days7: '7 jours',
  revoke: 'Révoquer maintenant',
  code: 'Code d’authentification',
  codeHint: 'Chaque modification demande le code actuel à 6 chiffres de votre application d’authentification.',
  newKey: 'Nouvelle clé API',
  keyRolled: 'Clé renouvelée',
  secret: 'Secret',
  secretOnce:
    'Copiez le secret maintenant et gardez-le dans le coffre à secrets de votre serveur : il n’est affiché que cette fois, ici comme ailleurs.',
  oldKeyUntil: 'L’ancienne clé {key} fonctionne jusqu’au {at} ; déployez le nouveau secret avant.',
  backToDevelopers: 'Retour à Développeurs',
  webhook: 'Webhooks',
  webhookIntro:
    'Nous envoyons (POST) le statut final de chaque paiement à cette adresse (ou au notify_url du paiement), signé avec le secret de votre clé active la plus récente.',
  webhookUrl: 'URL de webhook par défaut',
  webhookUrlHint:
    'Une adresse http:// ou https:// ; laissez vide pour la retirer (chaque paiement devra alors avoir son notify_url).',
  noWebhookUrl: 'Aucune URL de webhook par défaut.',
  save: 'Enregistrer',
  sendTest: 'Envoyer un événement de test',
  sendTestHint:
    'Renvoie votre événement de paiement le plus récent, inchangé mais avec un nouvel event_id, à l’URL par défaut, signé et réessayé comme tout événement.',
  eventLog: 'Journal des webhooks',
  events: 'Événements webhook',
  status: 'Statut',
  eventType: 'Événement',
  from: 'Depuis (UTC)',
  to: 'Avant (UTC)',
  any: 'Tous',
  filter: 'Filtrer',
  transaction: 'Transaction',
  attempts: 'Tentatives',
  lastAttempt: 'Dernière tentative',
  noEvents: 'Aucun événement webhook ne correspond.',
  nextPage: 'Événements plus anciens',
  event: 'Événement webhook',
  target: 'Envoyé à',
  nextAttempt: 'Prochaine tentative',
  delivered: 'Livré',
  payload: 'Corps',
  attemptNo: 'N°',
  at: 'Le',
  statusCode: 'Statut HTTP',
  latency: 'Durée (ms)',
  error: 'Erreur',
  success: 'Réussie',
  noAttempts: 'Aucune tentative pour l’instant.',
  resend: 'Renvoyer',
  resendHint: 'Seul un événement abandonné (tous les essais ont échoué) peut être renvoyé.',
  resendWindow: 'Renvoyer tous les événements abandonnés d’une période',
  resendWindowHint: 'Au plus {n} événements par clic, les plus anciens d’abord.',
  done_revoked: 'La clé est révoquée : elle cesse de fonctionner dès la prochaine requête.',
  done_unchanged: 'Rien n’a changé.',
  done_url_saved: 'L’URL de webhook par défaut est enregistrée.',
  done_test_queued: 'L’événement de test est en file d’envoi ; ses tentatives apparaissent dans le journal.',
  resent: '{resent} événement(s) renvoyé(s), {skipped} non (plus abandonnés).',
  badCode: 'Saisissez le code actuel à 6 chiffres de votre application d’authentification.',
  wrongCode:
    'Ce code n’est pas valide (ou a déjà servi). Saisissez le code actuel de votre application d’authentification.',
  noTwoFactor:
    'Activez d’abord la connexion en deux étapes dans « Mon compte » : les modifications ici demandent un code.',
  badGrace: 'Choisissez combien de temps l’ancienne clé fonctionne encore : 24 heures ou 7 jours.',
  notActive:
    'Seule une clé active peut être renouvelée ; celle-ci est révoquée ou déjà en cours de remplacement (révoquez-la plutôt).',
  badUrlField: 'L’URL de webhook n’a pas pu être lue.',
  noUrl: 'Définissez d’abord une URL de webhook par défaut : l’événement de test y est envoyé.',
  noEvent:
    'Aucun événement de paiement à envoyer pour l’instant : faites d’abord aboutir un paiement (en sandbox, un numéro finissant par 01 réussit).',
  badFilter:
    'Ces filtres n’ont pas pu être lus : choisissez un statut et un événement dans les listes, et des dates AAAA-MM-JJ.',
  badWindow: 'Indiquez la période par deux dates et heures, la première avant la seconde.',
  notAbandoned: 'Cet événement n’est pas abandonné : il a été livré, ou ses essais sont encore en cours.',
  webhookUrlError:
    'L’URL de webhook par défaut doit être une adresse http:// ou https:// complète, comme https://shop.example/webhooks (2048 caractères au plus).',
  webhookUrlCredentials: 'L’URL de webhook par défaut ne doit contenir ni nom d’utilisateur ni mot de passe.',
};

export const developersText = defineMessages<Keys>(en, fr);

/** `{name}` placeholders filled in. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * The use case's refusal in the page's language: the same check as the back-office and the API, its
 * English text mapped to ours (an unknown text is shown as the use case wrote it).
 */
export function webhookUrlErrorText(locale: Locale, error: string): string {
  const d = developersText(locale);
  if (error === WEBHOOK_URL_ERROR) return d.webhookUrlError;
  if (error === WEBHOOK_URL_CREDENTIALS_ERROR) return d.webhookUrlCredentials;
  return error;
}
