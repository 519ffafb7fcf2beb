export { runCommand, USAGE, CommandFailure, type CommandIo } from './run-command.js';
export { parseEnv, type AdminEnv } from './env.js';
export { seed } from './commands/seed.js';
