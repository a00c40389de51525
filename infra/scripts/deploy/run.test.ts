/**
 * The deploy's site address, offline: the CloudFormation client is faked at its boundary
 * (aws-sdk-client-mock), and the synth-time build step runs for real in a copy of the project.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockAwsClient } from '../../../tools/aws-client-mock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIG_CONTEXT_KEY,
  contextOverrides,
  parseConfig,
  RECAPTCHA_TEST_SECRET,
  RECAPTCHA_TEST_SITE_KEY,
  REPO_ROOT,
  webBuildEnv,
  withOverrides,
} from '../../config/portfolio-config';
import { buildSite } from '../../lib/web-build';
import { contextArgs, parseScriptArgs } from '../kit/cdk';
import { siteUrlFromOutputsFile } from '../kit/stack-outputs';
import { siteUrlForDeploy } from './run';
import { scratchDir } from '../../../tools/scratch';

const CLOUDFRONT_URL = 'https://d111111abcdef8.cloudfront.net';
const BLOCK = {
  region: 'eu-west-1',
  ownerEmail: 'owner@portfolio.dev',
  senderEmail: 'contact@portfolio.dev',
  recaptchaSecretParameter: '/portfolio/recaptcha-secret',
  recaptchaSiteKey: '6LcOwnSiteKeyOwnSiteKeyOwnSiteKey',
};
const cloudFormation = mockAwsClient(CloudFormationClient);
afterEach(() => cloudFormation.reset());

const stackWith = (outputs: Record<string, string>) => ({
  Stacks: [
    {
      StackName: 'Portfolio',
      StackStatus: 'UPDATE_COMPLETE' as const,
      CreationTime: new Date(),
      Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
    },
  ],
});
const noSuchStack = () => Object.assign(new Error('Stack with id Portfolio does not exist'), { name: 'ValidationError' });

/** What the CDK app does with the -c arguments the deploy passes: the configuration the synth builds with. */
function configAsTheAppSeesIt(args: string[]) {
  const context = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    expect(args[i]).toBe('-c');
    const [key, ...value] = args[i + 1]!.split('=');
    context.set(key!, value.join('='));
  }
  return parseConfig(
    withOverrides(
      BLOCK,
      contextOverrides((key) => context.get(key)),
    ),
  );
}

describe('the site address a deploy builds with', () => {
  it("is the stack's SiteUrl output when the stack exists", async () => {
    cloudFormation.on(DescribeStacksCommand, { StackName: 'Portfolio' }).resolves(stackWith({ SiteUrl: `${CLOUDFRONT_URL}/` }));
    expect(await siteUrlForDeploy(parseConfig(BLOCK))).toBe(CLOUDFRONT_URL);
  });

  it('is unknown before the first deploy (the deploy then learns it and deploys again)', async () => {
    cloudFormation.on(DescribeStacksCommand).rejects(noSuchStack());
    expect(await siteUrlForDeploy(parseConfig(BLOCK))).toBeUndefined();
  });

  it("reads a preview stage's own stack", async () => {
    cloudFormation.on(DescribeStacksCommand, { StackName: 'Portfolio-preview' }).resolves(stackWith({ SiteUrl: CLOUDFRONT_URL }));
    expect(await siteUrlForDeploy(parseConfig({ ...BLOCK, stage: 'preview' }))).toBe(CLOUDFRONT_URL);
  });

  it('is the custom domain, without asking AWS', async () => {
    const domain = { domainName: 'www.portfolio.dev', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'portfolio.dev' };
    expect(await siteUrlForDeploy(parseConfig({ ...BLOCK, domain }))).toBe('https://www.portfolio.dev');
    expect(cloudFormation.calls()).toHaveLength(0);
  });

  it('after a first deploy, comes from the outputs file cdk wrote', () => {
    const file = path.join(scratchDir('outputs-'), 'outputs.json');
    writeFileSync(file, JSON.stringify({ Portfolio: { SiteUrl: CLOUDFRONT_URL, DistributionId: 'E1FAKE' } }));
    expect(siteUrlFromOutputsFile(file, 'Portfolio')).toBe(CLOUDFRONT_URL);
    expect(siteUrlFromOutputsFile(file, 'Portfolio-preview')).toBeUndefined();
    // A trailing slash is dropped; a file cdk never wrote (the deploy failed early) means no address.
    writeFileSync(file, JSON.stringify({ Portfolio: { SiteUrl: `${CLOUDFRONT_URL}/` } }));
    expect(siteUrlFromOutputsFile(file, 'Portfolio')).toBe(CLOUDFRONT_URL);
    expect(siteUrlFromOutputsFile(path.join(path.dirname(file), 'missing.json'), 'Portfolio')).toBeUndefined();
  });

  it('reaches the CDK app as context, which injects it as VITE_SITE_URL', () => {
    const config = parseConfig({ ...BLOCK, stage: 'preview', trial: true });
    const args = contextArgs(config, CLOUDFRONT_URL);
    expect(args).toEqual(['-c', 'portfolio:stage=preview', '-c', 'portfolio:trial=true', '-c', `portfolio:siteUrl=${CLOUDFRONT_URL}`]);
    const seen = configAsTheAppSeesIt(args);
    expect(seen).toMatchObject({ stackName: 'Portfolio-preview', trial: true, siteUrl: CLOUDFRONT_URL });
    expect(webBuildEnv(seen).VITE_SITE_URL).toBe(CLOUDFRONT_URL);
  });
});

describe('the script flags', () => {
  it('takes --stage and --trial out and passes the rest to cdk', () => {
    expect(parseScriptArgs(['--stage', 'pr-7', '--require-approval', 'never', '--trial'])).toEqual({
      stage: 'pr-7',
      trial: true,
      rest: ['--require-approval', 'never'],
    });
    expect(parseScriptArgs(['--stage=pr-7'])).toMatchObject({ stage: 'pr-7', trial: false, rest: [] });
    expect(() => parseScriptArgs(['--stage'])).toThrow(/--stage needs a value/);
    expect(() => parseScriptArgs(['--stage', '--trial'])).toThrow(/--stage needs a value/);
  });
});

/** A copy of the project (node_modules linked) so this build never touches the worktree's web/build. */
function projectCopy(): string {
  const root = scratchDir('portfolio-project-');
  const skip = new Set(['node_modules', '.git', 'cdk.out', 'build', '.react-router']);
  cpSync(REPO_ROOT, root, { recursive: true, filter: (source) => !skip.has(path.basename(source)) });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return root;
}

describe("the deploy's build step with the learned address", () => {
  let client: string;

  beforeAll(async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith({ SiteUrl: CLOUDFRONT_URL }));
    const url = await siteUrlForDeploy(parseConfig(BLOCK));
    const config = configAsTheAppSeesIt(contextArgs(parseConfig(BLOCK), url));
    client = path.join(scratchDir('portfolio-site-'), 'client');
    mkdirSync(client);
    buildSite(projectCopy(), webBuildEnv(config), client);
  }, 240_000);

  it('writes it into canonical links and OpenGraph URLs', () => {
    const page = readFileSync(path.join(client, 'projects', 'index.html'), 'utf8');
    expect(page).toMatch(new RegExp(`<link[^>]+rel="canonical"[^>]+href="${CLOUDFRONT_URL}/projects"`));
    expect(page).toMatch(new RegExp(`<meta[^>]+property="og:url"[^>]+content="${CLOUDFRONT_URL}/projects"`));
    expect(page).not.toContain('portfolio.example.com');
  });

  it('writes it into sitemap.xml and robots.txt', () => {
    const sitemap = readFileSync(path.join(client, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain(`<loc>${CLOUDFRONT_URL}/home</loc>`);
    expect(sitemap).not.toContain('portfolio.example.com');
    const robots = readFileSync(path.join(client, 'robots.txt'), 'utf8');
    expect(robots).toContain(`Sitemap: ${CLOUDFRONT_URL}/sitemap.xml`);
    expect(robots).not.toContain('portfolio.example.com');
  });
});

describe('npm run deploy and the test reCAPTCHA key', () => {
  const run = (block: Record<string, unknown>, args: string[] = []) => {
    const file = path.join(scratchDir('cdk-json-'), 'cdk.json');
    writeFileSync(file, JSON.stringify({ context: { [CONFIG_CONTEXT_KEY]: block } }));
    return spawnSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), [path.join(REPO_ROOT, 'infra/scripts/deploy/cli.ts'), ...args], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        PORTFOLIO_CDK_JSON: file,
        // Nothing may reach AWS: fake credentials and an endpoint nobody listens on.
        AWS_ACCESS_KEY_ID: 'AKIAFAKE',
        AWS_SECRET_ACCESS_KEY: 'fake',
        AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_MAX_ATTEMPTS: '1',
      },
    });
  };

  const { recaptchaSiteKey: _ownKey, ...KEYLESS } = BLOCK;

  it.each([
    ['named', { ...BLOCK, recaptchaSiteKey: RECAPTCHA_TEST_SITE_KEY }],
    ['absent (what it means)', KEYLESS],
  ])(
    'refuses it when %s, naming the key and how to ask for a trial, before anything runs',
    (_how, block) => {
      const { status, stderr } = run(block);
      expect(status).toBe(1);
      expect(stderr).toContain(`portfolio.recaptchaSiteKey: "${RECAPTCHA_TEST_SITE_KEY}" is Google's public test key`);
      expect(stderr).toContain('npm run deploy -- --trial');
      expect(stderr).not.toMatch(/^Deploying /m);
    },
    70_000,
  );

  it('with --trial (the key null, as cdk.json ships it), says there is nothing to store and leaves the live parameter alone', () => {
    const { stderr } = run({ ...KEYLESS, recaptchaSiteKey: null }, ['--trial']);
    expect(stderr).toContain('The SSM parameter /portfolio/recaptcha-secret is neither read nor changed');
    expect(stderr).not.toContain('put-parameter');
    expect(stderr).not.toContain(RECAPTCHA_TEST_SECRET);
    expect(stderr).not.toContain("is Google's public test key");
  }, 70_000);
});
