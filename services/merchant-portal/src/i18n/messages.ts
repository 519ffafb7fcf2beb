/**
 * Every text of the portal, in French and English. A page asks `t(locale)` for its dictionary; a key
 * missing in one language is a type error, so the two cannot drift apart.
 */
import { merchantRoleName } from '@mm/domain';
import type { Locale } from './locale.js';

const en = {
  siteName: 'Merchant dashboard',
  signIn: 'Sign in',
  signOut: 'Sign out',
  signOutEverywhere: 'Sign out of every session',
  email: 'Email',
  password: 'Password',
  twoFactorTitle: 'Two-factor sign-in',
  twoFactorCode: 'The 6-digit code of your authenticator app, or a recovery code',
  continue: 'Continue',
  badCredentials: 'Wrong email or password.',
  badCode: 'This code is not valid. Type the current code of your authenticator app.',
  throttled: 'Too many sign-in attempts from your network. Wait a few minutes and try again.',
  home: 'Home',
  payments: 'Payments',
  cashouts: 'Cash-outs',
  links: 'Payment links',
  statements: 'Statements',
  developers: 'Developers',
  team: 'Team',
  security: 'Security',
  balances: 'Balances',
  available: 'Available',
  pending: 'Pending',
  language: 'Language',
  notFound: 'There is no such page.',
  forbidden: 'Your role does not give access to this page.',
  expiredForm: 'This form has expired. Go back, reload the page and try again.',
  internalError: 'An internal error occurred. It has been logged.',
  mainNav: 'Main',
  account: 'My account',
  signInTitle: 'Sign in to your dashboard',
  signedOut: 'You are signed out.',
  codeExpired: 'This sign-in took too long. Enter your email and password again.',
  requestId: 'Request id',
  backHome: 'Back to the home page',
  badRequest: 'The form could not be read.',
  tooLarge: 'The form sent is too large.',
  errorTitle: 'Error',
  forbiddenTitle: 'Forbidden',
  notFoundTitle: 'Not found',
  collected30d: 'Collected, last 30 days',
  successRate: 'Success rate',
  noSubsidiary: 'No country is open for you yet.',
} as const;

type Messages = { readonly [K in keyof typeof en]: string };

const fr: Messages = {
  siteName: 'Tableau de bord marchand',
  signIn: 'Se connecter',
  signOut: 'Se déconnecter',
  signOutEverywhere: 'Fermer toutes les sessions',
  email: 'E-mail',
  password: 'Mot de passe',
  twoFactorTitle: 'Connexion en deux étapes',
  twoFactorCode: "Le code à 6 chiffres de votre application d'authentification, ou un code de secours",
  continue: 'Continuer',
  badCredentials: 'E-mail ou mot de passe incorrect.',
  badCode: "Ce code n'est pas valide. Saisissez le code actuel de votre application d'authentification.",
  throttled: 'Trop de tentatives de connexion depuis votre réseau. Patientez quelques minutes et réessayez.',
  home: 'Accueil',
  payments: 'Paiements',
  cashouts: 'Décaissements',
  links: 'Liens de paiement',
  statements: 'Relevés',
  developers: 'Développeurs',
  team: 'Équipe',
  security: 'Sécurité',
  balances: 'Soldes',
  available: 'Disponible',
  pending: 'En attente',
  language: 'Langue',
  notFound: "Cette page n'existe pas.",
  forbidden: 'Votre rôle ne donne pas accès à cette page.',
  expiredForm: 'Ce formulaire a expiré. Revenez en arrière, rechargez la page et réessayez.',
  internalError: "Une erreur interne s'est produite. Elle a été enregistrée.",
  mainNav: 'Principal',
  account: 'Mon compte',
  signInTitle: 'Connexion à votre tableau de bord',
  signedOut: 'Vous êtes déconnecté.',
  codeExpired: 'Cette connexion a pris trop de temps. Saisissez à nouveau votre e-mail et votre mot de passe.',
  requestId: 'Identifiant de la requête',
  backHome: "Retour à l'accueil",
  badRequest: "Le formulaire n'a pas pu être lu.",
  tooLarge: 'Le formulaire envoyé est trop volumineux.',
  errorTitle: 'Erreur',
  forbiddenTitle: 'Accès refusé',
  notFoundTitle: 'Page introuvable',
  collected30d: 'Encaissé, 30 derniers jours',
  successRate: 'Taux de réussite',
  noSubsidiary: "Aucun pays n'est encore ouvert pour vous.",
};

/** A role's name in the page's language (an unknown role, a bad row, shows as stored). */
export function roleLabel(locale: Locale, role: string): string {
  return merchantRoleName(locale, role);
}

const DICTIONARIES: Readonly<Record<Locale, Messages>> = { en, fr };

export function t(locale: Locale): Messages {
  return DICTIONARIES[locale];
}

/**
 * A page area's own texts (payments, developers, ...), kept next to its view so areas do not all edit
 * one file; the French dictionary must have exactly the English one's keys, as above.
 */
export function defineMessages<K extends string>(
  en: Readonly<Record<K, string>>,
  fr: Readonly<Record<K, string>>,
): (locale: Locale) => Readonly<Record<K, string>> {
  return (locale) => (locale === 'fr' ? fr : en);
}
