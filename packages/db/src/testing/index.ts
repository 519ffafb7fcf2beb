export { sealUnbound } from './unbound-secret.js';
export { readsBetween, tableStats, type TableStats } from './table-reads.js';
