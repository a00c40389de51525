/** The one error path every owner's command goes through, and its exit codes (0 done, 1 failed, 2 usage). */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/portfolio-config';
import { runDeploy, USAGE as DEPLOY_USAGE } from '../deploy/run';
import { runDestroy, USAGE as DESTROY_USAGE } from '../destroy/run';
import { doctorCommand, USAGE as DOCTOR_USAGE } from '../doctor/run';
import { messagesCommand, USAGE as MESSAGES_USAGE } from '../messages/run';
import { smokeCommand, USAGE as SMOKE_USAGE } from '../smoke/run';
import { USAGE as VISITORS_USAGE, visitorsCommand } from '../visitors/run';
import { runSynth, USAGE as SYNTH_USAGE } from '../synth/run';
import { githubSetupCommand, USAGE as GITHUB_SETUP_USAGE } from '../github-setup/run';
import { CommandError, commandExitCode, CONFIG_HINT, EXIT, type CommandSpec, UsageError } from './command';

async function outcome(run: CommandSpec['run'], argv: string[] = [], usage = 'Usage: npm run x') {
  const lines: string[] = [];
  const code = await commandExitCode({ name: 'x', usage, run }, argv, (text) => lines.push(text));
  return { code, err: lines.join('\n') };
}

describe('commandExitCode', () => {
  it("passes the command's own code through", async () => {
    expect(await outcome(() => EXIT.done)).toEqual({ code: 0, err: '' });
    expect(await outcome(async () => EXIT.failed)).toEqual({ code: 1, err: '' });
  });

  it('a usage error: the problem and the usage, exit 2', async () => {
    expect(
      await outcome(() => {
        throw new UsageError('unknown option --x');
      }),
    ).toEqual({ code: 2, err: '✗ unknown option --x\n\nUsage: npm run x' });
  });

  it('a problem the owner can act on: one line, exit 1', async () => {
    expect(
      await outcome(async () => {
        throw new CommandError('No stack Portfolio');
      }),
    ).toEqual({ code: 1, err: '✗ No stack Portfolio' });
  });

  it('a configuration problem: every key named, then where to fix it, exit 1', async () => {
    const { code, err } = await outcome(() => {
      throw new ConfigError(['portfolio.ownerEmail: missing']);
    });
    expect(code).toBe(1);
    expect(err).toContain('portfolio.ownerEmail: missing');
    expect(err.endsWith(CONFIG_HINT)).toBe(true);
  });

  it('a command the workflows run by path is named by that path', async () => {
    const lines: string[] = [];
    const run = () => {
      throw new Error('boom');
    };
    expect(
      await commandExitCode({ name: 'deploy', invocation: 'tsx infra/scripts/deploy/cli.ts', usage: '', run }, [], (t) => lines.push(t)),
    ).toBe(EXIT.failed);
    expect(lines).toEqual(['✗ tsx infra/scripts/deploy/cli.ts could not finish: Error: boom']);
  });
  it('anything unexpected: named as such with its error, no stack trace, exit 1', async () => {
    const { code, err } = await outcome(() => {
      throw new TypeError('boom');
    });
    expect(code).toBe(1);
    expect(err).toBe('✗ npm run x could not finish: TypeError: boom');
  });
});

describe('every command answers a usage error with exit 2 and its usage, before touching AWS or the CDK', () => {
  it.each<[string, CommandSpec['run'], string, string[], RegExp]>([
    [
      'doctor',
      (argv) => doctorCommand(argv),
      DOCTOR_USAGE,
      ['--stag', 'preview'],
      /unknown option --stag \(known: --stage NAME, --trial\)/,
    ],
    ['smoke', (argv) => smokeCommand(argv), SMOKE_USAGE, [], /the site URL is missing/],
    ['smoke', (argv) => smokeCommand(argv), SMOKE_USAGE, ['--verbose', 'https://x.dev'], /unknown option --verbose/],
    ['smoke', (argv) => smokeCommand(argv), SMOKE_USAGE, ['ftp://x.dev'], /not an http\(s\) URL/],
    ['messages', (argv) => messagesCommand(argv), MESSAGES_USAGE, ['bogus'], /unknown command bogus/],
    ['destroy', runDestroy, DESTROY_USAGE, ['--force'], /needs --stage NAME or --live/],
    ['deploy', runDeploy, DEPLOY_USAGE, ['--stage'], /--stage needs a value/],
    ['synth', runSynth, SYNTH_USAGE, ['--stage', '--trial'], /--stage needs a value/],
    ['visitors', (argv) => visitorsCommand(argv), VISITORS_USAGE, ['--days', '0'], /--days must be a whole number/],
    ['visitors', (argv) => visitorsCommand(argv), VISITORS_USAGE, ['--bogus'], /unknown option --bogus/],
    ['github-setup', githubSetupCommand, GITHUB_SETUP_USAGE, ['--repo', '--name-only-subject'], /--repo needs a value/],
    ['deploy', runDeploy, DEPLOY_USAGE, ['--assembly'], /--assembly needs a value/],
  ])('%s %j', async (_name, run, usage, argv, message) => {
    const { code, err } = await outcome(run, argv, usage);
    expect(code).toBe(EXIT.usage);
    expect(err).toMatch(message);
    expect(err.endsWith(usage)).toBe(true);
  });
});
