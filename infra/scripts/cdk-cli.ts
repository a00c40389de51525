/** Shared by synth.ts and deploy.ts: check the configuration, then run the project's pinned CDK CLI. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import {
  ConfigError,
  deployReadinessProblems,
  loadConfigFromCdkJson,
  type PortfolioConfig,
  RECAPTCHA_TEST_SITE_KEY,
  REPO_ROOT,
} from '../config/portfolio-config';

/** Reads and checks cdk.json's "portfolio" block; on a problem prints every one (key named) and exits 1. */
export function checkedConfig(options: { forDeploy: boolean }): PortfolioConfig {
  try {
    const config = loadConfigFromCdkJson();
    const problems = options.forDeploy ? deployReadinessProblems(config) : [];
    if (problems.length > 0) throw new ConfigError(problems);
    if (options.forDeploy && config.recaptchaSiteKey === RECAPTCHA_TEST_SITE_KEY) {
      // Allowed for a trial deploy, but every visitor would see Google's "for testing purposes only" banner.
      console.warn(
        'Warning: portfolio.recaptchaSiteKey is Google\'s public test key: the captcha accepts everyone and shows a ' +
          'test banner. Put your own site key (and its secret in SSM) before going live.',
      );
    }
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\nEdit cdk.json (README "Deploying to AWS" explains every key).`);
      process.exit(1);
    }
    throw error;
  }
}

/** Runs `cdk <args>` with telemetry and notices off; returns its exit status. */
export function runCdk(args: string[], env: NodeJS.ProcessEnv = {}): number {
  const cdk = path.join(REPO_ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'cdk.cmd' : 'cdk');
  const result = spawnSync(cdk, [...args, '--no-notices'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: '1', ...env },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}
