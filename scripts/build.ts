/**
 * `npm run build`'s first step: `react-router build`, its output passed through line by line but for one
 * line. React Router's CLI loads react-router.config.ts through a Vite server of its own, made with
 * `envFile: false`, an option Vite 8 deprecates, so every build began with "The `envFile` option is
 * deprecated, please use `envDir: false` instead.": about React Router's code, printed before any of
 * this project's runs (vite.config.ts drops the same line from the Vite servers made after it, and from
 * `npm run dev`). Exits with the build's code.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The one line left out (Vite's words, node_modules/vite/dist/node/chunks/node.js). */
export const ENV_FILE_DEPRECATION = 'The `envFile` option is deprecated';

/** Whether a line of the build's output is kept. */
export const keepLine = (line: string): boolean => !line.includes(ENV_FILE_DEPRECATION);

function main(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const windows = process.platform === 'win32';
  const bin = path.join(root, 'node_modules', '.bin', windows ? 'react-router.cmd' : 'react-router');
  // Piped, the output would lose its colours: keep them when this process writes to a terminal.
  const env = process.stdout.isTTY && !process.env.NO_COLOR ? { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' } : process.env;
  const child = spawn(bin, ['build', ...process.argv.slice(2)], {
    cwd: process.cwd(),
    env,
    stdio: ['inherit', 'pipe', 'pipe'],
    shell: windows,
  });
  const forward = (from: NodeJS.ReadableStream, to: NodeJS.WritableStream) =>
    createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => {
      if (keepLine(line)) to.write(`${line}\n`);
    });
  forward(child.stdout, process.stdout);
  forward(child.stderr, process.stderr);
  child.on('error', (error) => {
    console.error(`Could not start react-router build: ${error.message}`);
    process.exitCode = 1;
  });
  child.on('close', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
