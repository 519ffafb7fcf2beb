/** The texts of "My account": the user's details, two-factor sign-in and their sessions. */
import { defineMessages } from './messages.js';

export const accountMessages = defineMessages(
  {
    title: 'My account',
    name: 'Name',
    email: 'Email',
    role: 'Role',
    twoFactor: 'Two-factor sign-in',
    stateOn: 'On',
    stateOff: 'Off',
    statePending: 'Being set up',
    since: 'since',
    recoveryLeft: 'Recovery codes left',
    offHelp:
      'With two-factor sign-in, a code of an authenticator app on your phone is asked after your password: ' +
      'a stolen password alone no longer opens your dashboard. Refunds, cash-outs, keys and webhooks need it.',
    start: 'Set up two-factor sign-in',
    scan:
      'Scan this QR code with your authenticator app (Google Authenticator, Microsoft Authenticator, FreeOTP, ...), ' +
      'or type the key below in it.',
    qrLabel: 'QR code to scan with your authenticator app',
    key: 'Key to type',
    confirmCode: 'The 6-digit code the app now shows',
    confirm: 'Turn on two-factor sign-in',
    restart: 'Start again with a new key',
    recoveryTitle: 'Your recovery codes',
    recoveryHelp:
      'Each of these codes signs you in once if you lose your phone. Write them down or print them now: ' +
      'they are shown only this time. Setting up two-factor sign-in again replaces them.',
    recoveryDone: 'I have kept them: back to my account',
    enabled: 'Two-factor sign-in is on.',
    disabled: 'Two-factor sign-in is off.',
    newPhoneTitle: 'Move to a new phone',
    newPhoneHelp:
      'Makes a new key and new recovery codes; the old ones stop working at once and two-factor sign-in is off ' +
      'until you confirm the new key.',
    newPhone: 'Set up a new key',
    turnOffTitle: 'Turn off two-factor sign-in',
    turnOff: 'Turn off',
    turnOffRequired: 'Your team requires two-factor sign-in: it cannot be turned off.',
    currentCode: 'The current code of your authenticator app, or a recovery code',
    wrongCode: 'This code is not valid. Type the current code of your authenticator app, or an unused recovery code.',
    wrongNewCode: 'This code is not valid. Type the code the app shows for the new key.',
    missingCode: 'Type the code.',
    notPending: 'No set-up is in progress: start again.',
    alreadyOn: 'Two-factor sign-in is already on.',
    required: 'Your team requires two-factor sign-in. Set it up below to reach the rest of the dashboard.',
    sessionsTitle: 'Sessions',
    sessionsHelp: 'Ends every session of yours on every device, this one included; you sign in again after.',
  },
  {
    title: 'Mon compte',
    name: 'Nom',
    email: 'E-mail',
    role: 'Rôle',
    twoFactor: 'Connexion en deux étapes',
    stateOn: 'Activée',
    stateOff: 'Désactivée',
    statePending: 'En cours de configuration',
    since: 'depuis',
    recoveryLeft: 'Codes de secours restants',
    offHelp:
      "Avec la connexion en deux étapes, un code d'une application d'authentification sur votre téléphone est " +
      'demandé après le mot de passe : un mot de passe volé ne suffit plus à ouvrir votre tableau de bord. ' +
      "Remboursements, décaissements, clés et webhooks l'exigent.",
    start: 'Configurer la connexion en deux étapes',
    scan:
      "Scannez ce code QR avec votre application d'authentification (Google Authenticator, Microsoft " +
      'Authenticator, FreeOTP, ...), ou saisissez-y la clé ci-dessous.',
    qrLabel: "Code QR à scanner avec votre application d'authentification",
    key: 'Clé à saisir',
    confirmCode: "Le code à 6 chiffres que l'application affiche maintenant",
    confirm: 'Activer la connexion en deux étapes',
    restart: 'Recommencer avec une nouvelle clé',
    recoveryTitle: 'Vos codes de secours',
    recoveryHelp:
      'Chacun de ces codes vous connecte une fois si vous perdez votre téléphone. Notez-les ou imprimez-les ' +
      'maintenant : ils ne sont affichés que cette fois. Reconfigurer la connexion en deux étapes les remplace.',
    recoveryDone: 'Je les ai conservés : retour à mon compte',
    enabled: 'La connexion en deux étapes est activée.',
    disabled: 'La connexion en deux étapes est désactivée.',
    newPhoneTitle: 'Passer à un nouveau téléphone',
    newPhoneHelp:
      'Crée une nouvelle clé et de nouveaux codes de secours ; les anciens cessent aussitôt de fonctionner et la ' +
      "connexion en deux étapes reste désactivée tant que la nouvelle clé n'est pas confirmée.",
    newPhone: 'Créer une nouvelle clé',
    turnOffTitle: 'Désactiver la connexion en deux étapes',
    turnOff: 'Désactiver',
    turnOffRequired: 'Votre équipe exige la connexion en deux étapes : elle ne peut pas être désactivée.',
    currentCode: "Le code actuel de votre application d'authentification, ou un code de secours",
    wrongCode:
      "Ce code n'est pas valide. Saisissez le code actuel de votre application d'authentification, ou un code " +
      'de secours inutilisé.',
    wrongNewCode: "Ce code n'est pas valide. Saisissez le code que l'application affiche pour la nouvelle clé.",
    missingCode: 'Saisissez le code.',
    notPending: 'Aucune configuration en cours : recommencez.',
    alreadyOn: 'La connexion en deux étapes est déjà activée.',
    required:
      'Votre équipe exige la connexion en deux étapes. Configurez-la ci-dessous pour accéder au reste du ' +
      'tableau de bord.',
    sessionsTitle: 'Sessions',
    sessionsHelp:
      'Ferme toutes vos sessions sur tous les appareils, celle-ci comprise ; vous vous reconnectez ensuite.',
  },
);
