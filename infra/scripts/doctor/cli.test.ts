/**
 * `npm run doctor` as a new owner runs it without AWS credentials: the real SDK, no network (no
 * shared config files, no instance metadata), one clear line, exit 1, no stack trace.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { scratchDir } from '../../../tools/scratch';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts');
const home = scratchDir('doctor-home-');

it('without credentials prints one line naming how to set them and exits 1', () => {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('AWS_')) env[name] = value;
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: path.join(home, 'none-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'none-credentials'),
  });
  const run = spawnSync(process.execPath, ['--import', 'tsx', CLI], { env, encoding: 'utf8', timeout: 30_000 });
  expect(run.status).toBe(1);
  expect(run.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^✗ No AWS credentials found: run `aws configure`/)]);
  expect(run.stderr).not.toMatch(/\n\s+at /);
});

it('refuses a flag it does not know (it used to drop it silently), naming the ones it knows: exit 2', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', CLI, '--stag', 'preview'], { encoding: 'utf8', timeout: 30_000 });
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/^✗ unknown option --stag \(known: --stage NAME, --trial\)\n\nUsage: npm run doctor/);
  expect(run.stdout).toBe('');
});
