/**
 * Test helpers: a fast App (no bundling, no asset staging, no CloudFormation validation) and
 * a small prebuilt site, so the stacks synthesize in seconds without running the web build.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CDK_JSON_FILE, type PortfolioConfig, parseConfig } from '../config/portfolio-config';
import { RECAPTCHA_TEST_SITE_KEY } from '../../contract/settings';
import { INLINE_SCRIPT_HASHES } from '../shared/security-headers';
import { addPortfolioStacks, type PortfolioStacks } from './portfolio-app';
import { DEPLOYABLE_RESOURCE_TYPES } from '../scripts/deploy/assembly';
import { scratchDir } from '../../tools/scratch';

/** A CloudFormation template fragment, as the assertion tests walk it (shapes vary by resource). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- template JSON is untyped by nature
export type Json = Record<string, any>;

export const FIXTURE_CONFIG_INPUT = {
  region: 'eu-west-1',
  ownerEmail: 'owner@portfolio.dev',
  senderEmail: 'contact@mail.portfolio.dev',
  recaptchaSecretParameter: '/portfolio/recaptcha-secret',
  recaptchaSiteKey: RECAPTCHA_TEST_SITE_KEY,
  gaMeasurementId: 'G-TEST000000',
  domain: null,
  // Outside us-east-1 a plan cannot be had (portfolio-config.ts); edge-plan.test.ts synthesizes the plans.
  cloudFrontPlan: 'payAsYouGo',
} as const;

export function fixtureConfig(overrides: Record<string, unknown> = {}): PortfolioConfig {
  return parseConfig({ ...FIXTURE_CONFIG_INPUT, ...overrides });
}

/** A directory shaped like web/build: client/ with pages, a fallback, named files and hashed assets. */
export function makeFixtureSite(): string {
  const dir = scratchDir('portfolio-site-');
  const files: Record<string, string> = {
    'client/index.html': '<!doctype html><title>home</title>',
    'client/home/index.html': '<!doctype html><title>home</title>',
    'client/projects/index.html': '<!doctype html><title>projects</title>',
    'client/projects/3/index.html': '<!doctype html><title>project 3</title>',
    'client/__spa-fallback.html': '<!doctype html><title>not found</title>',
    'client/robots.txt': 'User-agent: *\n',
    'client/sitemap.xml': '<urlset/>',
    'client/assets/entry-AbC123.js': 'console.log(1)',
    'client/videos/demo.mp4': 'not really a video',
    'postbuild.json': JSON.stringify({ inlineScriptHashes: [...INLINE_SCRIPT_HASHES] }),
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

/** The feature flags pinned in cdk.json, so tests synthesize what `cdk synth` does. */
export function featureFlags(): Record<string, unknown> {
  const json = JSON.parse(readFileSync(CDK_JSON_FILE, 'utf8')) as { context?: Record<string, unknown> };
  return Object.fromEntries(Object.entries(json.context ?? {}).filter(([key]) => key.startsWith('@aws-cdk')));
}

export function fastApp(): App {
  return new App({
    outdir: scratchDir('cdk.out-'),
    builtinCloudFormationValidation: false,
    context: { ...featureFlags(), 'aws:cdk:bundling-stacks': [], 'aws:cdk:disable-asset-staging': true },
  } as ConstructorParameters<typeof App>[0]);
}

export interface Synthesized {
  stacks: PortfolioStacks;
  template: Template;
  certificateTemplate?: Template;
  siteDir: string;
}

/** Synthesizes the app once (cdk-nag included) with a prebuilt site (a small fixture unless given). */
export function synthPortfolio(
  config: PortfolioConfig = fixtureConfig(),
  account = '123456789012',
  siteDir: string = makeFixtureSite(),
): Synthesized {
  const app = fastApp();
  const stacks = addPortfolioStacks(app, config, { account, prebuiltSiteDir: siteDir });
  app.synth();
  return {
    stacks,
    template: Template.fromStack(stacks.main),
    certificateTemplate: stacks.certificate ? Template.fromStack(stacks.certificate) : undefined,
    siteDir,
  };
}

/**
 * The resource types of these templates that the production deploy would refuse (infra/scripts/deploy/
 * assembly.ts): none, or the app has grown a type its deploy does not accept yet.
 */
export function undeployableTypes(...templates: (Template | undefined)[]): string[] {
  const types = templates.flatMap((t) => Object.values<Json>(t?.toJSON().Resources ?? {}).map((r) => String(r.Type)));
  return [...new Set(types)].filter((type) => !DEPLOYABLE_RESOURCE_TYPES.has(type)).sort();
}

/** The boundary each role of these templates carries, as CloudFormation resolves it here ("" for none). */
export function roleBoundaries(...templates: (Template | undefined)[]): string[] {
  const roles = templates.flatMap((t) => Object.values<Json>(t?.toJSON().Resources ?? {}).filter((r) => r.Type === 'AWS::IAM::Role'));
  return roles.map((r) => JSON.stringify(r.Properties?.PermissionsBoundary ?? ''));
}
