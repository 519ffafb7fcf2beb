import { parseEnv } from './env.js';
import { CommandFailure, runCommand } from './run-command.js';

/** All of standard input: the secrets of operator:credentials (never argv, which `ps` shows to everyone). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    process.stderr.write(
      'Reading the credentials (one JSON object) from standard input; end with Ctrl-D. A file is better: ... < credentials.json\n',
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

try {
  console.log(await runCommand(process.argv.slice(2), parseEnv(process.env), { readStdin }));
} catch (err) {
  if (err instanceof CommandFailure) console.log(err.output);
  else console.error((err as Error).message);
  process.exitCode = 1;
}
