/**
 * `npm run setup [-- flags]`: from an empty AWS account to a deployable site, asking before each
 * change. docs/deploy.md ("Set up with npm run setup") lists the flags.
 */
import { runCdk } from '../cdk-cli';
import { terminalPrompter } from './prompter';
import { awsSetupClients, runSetup } from './run';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

runSetup({
  argv: process.argv.slice(2),
  env: process.env,
  tty: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  deps: {
    prompter: terminalPrompter,
    clients: awsSetupClients,
    runCdk: (args) => runCdk(args),
    readStdin,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: () => Date.now(),
  },
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✗ npm run setup could not finish: ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  },
);
