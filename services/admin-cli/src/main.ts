import { parseEnv } from './env.js';
import { CommandFailure, runCommand } from './run-command.js';

try {
  console.log(await runCommand(process.argv.slice(2), parseEnv(process.env)));
} catch (err) {
  if (err instanceof CommandFailure) console.log(err.output);
  else console.error((err as Error).message);
  process.exitCode = 1;
}
