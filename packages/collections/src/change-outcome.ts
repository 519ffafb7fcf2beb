/** What a staff member's change of one setting did: `unchanged` when it already was so. */
export type ChangeOutcome = 'changed' | 'unchanged' | 'not_found';
