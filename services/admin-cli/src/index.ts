export { runCommand, USAGE, CommandFailure } from './run-command.js';
export { parseEnv, type AdminEnv } from './env.js';
export { seed } from './commands/seed.js';
