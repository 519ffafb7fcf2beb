export { sealUnbound } from './unbound-secret.js';
