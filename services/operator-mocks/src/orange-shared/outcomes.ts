/**
 * The project's scripted outcomes, by the national number's last two digits (decisions.md), in the
 * vocabulary the Orange mocks map them onto.
 */
export type ScriptedOutcome =
  'success' | 'insufficient' | 'wrong-pin' | 'limit' | 'declined' | 'never' | 'refused' | 'late';

export function scriptedOutcome(msisdn: string): ScriptedOutcome {
  switch (msisdn.replace(/\D/g, '').slice(-2)) {
    case '02':
      return 'insufficient';
    case '03':
      return 'wrong-pin';
    case '04':
      return 'limit';
    case '05':
      return 'declined';
    case '06':
      return 'never';
    case '07':
      return 'refused';
    case '09':
      return 'late';
    default:
      return 'success';
  }
}

/** Orange's own codes and wording for the failures (the service interface's vocabulary is Orange's). */
export const ORANGE_CAUSES = {
  insufficient: { code: '60019', text: 'Le solde du compte du payeur est insuffisant' },
  'wrong-pin': { code: '00017', text: 'Code secret incorrect' },
  limit: { code: '100004', text: 'Vous avez saisi un montant superieur au montant maximum autorise' },
} as const;
