import { parseEnv } from './env.js';
import { runCommand } from './run-command.js';

try {
  console.log(await runCommand(process.argv.slice(2), parseEnv(process.env)));
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
