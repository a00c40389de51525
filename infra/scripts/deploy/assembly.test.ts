/**
 * The production deploy's check of a built assembly: a real synth's output passes; each thing a
 * compromised build could slip in (a command run as an asset's build, a container image, a stack or a
 * resource type the app does not make, a path out of the assembly) is refused, and `npm run deploy --
 * --assembly` refuses it before the doctor or the CDK CLI runs (so before any AWS call). No module is
 * mocked: the node project's files share their worker's modules.
 */
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CONFIG_CONTEXT_KEY, parseConfig } from '../../config/portfolio-config';
import type { Json } from '../../lib/testing';
import { assemblyProblems, expectedOf } from './assembly';
import { runDeploy } from './run';
import { scratchDir } from '../../../tools/scratch';

const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';
const BLOCK = {
  stackName: 'Portfolio',
  region: REGION,
  ownerEmail: 'owner@portfolio.dev',
  senderEmail: 'contact@portfolio.dev',
  recaptchaSecretParameter: '/portfolio/recaptcha-secret',
  recaptchaSiteKey: '6LcOwnSiteKeyOwnSiteKeyOwnSiteKey',
};
const EXPECTED = expectedOf(parseConfig(BLOCK));

let built: string;

/** A real synth (the CDK's own writer) of a stack named like the app's: a bucket and a function from a folder. */
beforeAll(() => {
  const source = scratchDir('assembly-src-');
  writeFileSync(path.join(source, 'index.js'), 'exports.handler = async () => 1;\n');
  built = scratchDir('assembly-');
  // Version reporting on, as `cdk synth` has it: the template then holds its AWS::CDK::Metadata marker.
  const app = new App({ outdir: built, analyticsReporting: true });
  const stack = new Stack(app, 'Portfolio', { env: { account: ACCOUNT, region: REGION } });
  new s3.Bucket(stack, 'Site');
  new lambda.Function(stack, 'Handler', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromAsset(source),
  });
  new cloudwatch.Alarm(stack, 'Errors', {
    metric: new cloudwatch.Metric({ namespace: 'Portfolio', metricName: 'Errors' }),
    threshold: 1,
    evaluationPeriods: 1,
  });
  iam.PermissionsBoundary.of(stack).apply(iam.ManagedPolicy.fromManagedPolicyName(stack, 'Boundary', 'Portfolio-cdk-boundary'));
  app.synth();
});

/** A copy of the built assembly with one JSON file changed. */
function crafted(file: string, change: (json: Json, dir: string) => void): string {
  const dir = scratchDir('assembly-crafted-');
  cpSync(built, dir, { recursive: true });
  const json = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  change(json, dir);
  writeFileSync(path.join(dir, file), JSON.stringify(json));
  return dir;
}
const ASSETS = 'Portfolio.assets.json';
const TEMPLATE = 'Portfolio.template.json';
const firstFile = (json: Json): Json => Object.values<Json>(json.files).find((f) => f.source.packaging === 'zip')!;

/** Each thing a compromised build could put in, and the reason the check gives. */
const cases: [string, () => string, RegExp][] = [
  [
    'an asset made by running a command (the CLI runs it holding the role)',
    () =>
      crafted(ASSETS, (json) => {
        firstFile(json).source = { executable: ['sh', '-c', 'env > /tmp/leak'], packaging: 'file' };
      }),
    /made by running \["sh","-c","env > \/tmp\/leak"\]/,
  ],
  [
    'a container image to build',
    () =>
      crafted(ASSETS, (json) => {
        json.dockerImages = { abc: { source: { directory: 'asset.abc' }, destinations: {} } };
      }),
    /builds container images \(abc\)/,
  ],
  [
    'a stack the app does not make',
    () =>
      crafted('manifest.json', (json) => {
        json.artifacts.Other = { ...json.artifacts.Portfolio, displayName: 'Other' };
      }),
    /stack Other is not one this app makes/,
  ],
  [
    'a nested assembly',
    () =>
      crafted('manifest.json', (json) => {
        json.artifacts.Stage = { type: 'cdk:cloud-assembly', properties: { directoryName: 'assembly-Stage' } };
      }),
    /artifact Stage is of type cdk:cloud-assembly/,
  ],
  [
    'a resource type the app does not make (a user with keys)',
    () =>
      crafted(TEMPLATE, (json) => {
        json.Resources.Backdoor = { Type: 'AWS::IAM::User', Properties: {} };
      }),
    /Backdoor is a AWS::IAM::User/,
  ],
  [
    'a template run through a macro',
    () =>
      crafted(TEMPLATE, (json) => {
        json.Transform = 'AWS::Serverless-2016-10-31';
      }),
    /has a Transform/,
  ],
  [
    'an asset outside the assembly',
    () =>
      crafted(ASSETS, (json) => {
        firstFile(json).source.path = '../../etc';
      }),
    /\.\.\/\.\.\/etc is outside the assembly/,
  ],
  [
    'an asset folder holding a link out of it',
    () =>
      crafted(ASSETS, (json, dir) => {
        symlinkSync('/etc/passwd', path.join(dir, firstFile(json).source.path, 'passwd'));
      }),
    /holds symbolic links/,
  ],
  [
    'an asset sent to another bucket',
    () =>
      crafted(ASSETS, (json) => {
        for (const destination of Object.values<Record<string, string>>(firstFile(json).destinations))
          destination.bucketName = 'someone-elses';
      }),
    /goes to someone-elses/,
  ],
  [
    'a stack deployed through another role',
    () =>
      crafted('manifest.json', (json) => {
        json.artifacts.Portfolio.properties.cloudFormationExecutionRoleArn = `arn:aws:iam::${ACCOUNT}:role/Admin`;
      }),
    /executed by arn:aws:iam::123456789012:role\/Admin/,
  ],
  [
    'a stack in another region',
    () =>
      crafted('manifest.json', (json) => {
        json.artifacts.Portfolio.environment = `aws://${ACCOUNT}/us-west-2`;
      }),
    /stack Portfolio is for aws:\/\/123456789012\/us-west-2/,
  ],
  [
    'an asset in the stack metadata (the older form, which may build an image)',
    () =>
      crafted('Portfolio.metadata.json', (json) => {
        json['/Portfolio'] = [{ type: 'aws:cdk:asset', data: { packaging: 'container-image', path: 'asset.x' } }];
      }),
    /names an asset in its metadata/,
  ],
  [
    'a role without the boundary (one the execution role could not make)',
    () =>
      crafted(TEMPLATE, (json) => {
        const [id] = Object.entries<Json>(json.Resources).find(([, r]) => r.Type === 'AWS::IAM::Role')!;
        delete json.Resources[id].Properties.PermissionsBoundary;
      }),
    /is a role without the boundary Portfolio-cdk-boundary/,
  ],
  [
    'an alarm with its actions off',
    () =>
      crafted(TEMPLATE, (json) => {
        const [id] = Object.entries<Json>(json.Resources).find(([, r]) => r.Type === 'AWS::CloudWatch::Alarm')!;
        json.Resources[id].Properties.ActionsEnabled = false;
      }),
    /is an alarm with its actions switched off/,
  ],
];

describe('a built assembly', () => {
  it('passes when it holds what the app makes', () => {
    expect(assemblyProblems(built, EXPECTED)).toEqual([]);
  });

  it.each(cases)('is refused with %s', (_what, make, reason) => {
    const problems = assemblyProblems(make(), EXPECTED);
    expect(problems.join('\n')).toMatch(reason);
  });

  it("is refused when the app's own stack is missing", () => {
    expect(assemblyProblems(built, expectedOf(parseConfig({ ...BLOCK, stackName: 'Site' })))).toEqual(
      expect.arrayContaining(['stack Site is missing', expect.stringMatching(/stack Portfolio is not one this app makes/)]),
    );
  });
});

describe('npm run deploy -- --assembly', () => {
  // The check runs before the doctor and the CDK CLI: a refused assembly throws here, where a doctor
  // that ran would have answered "found problems" (its AWS calls go to an endpoint nobody listens on).
  it.each(cases.map(([what, make]) => [what, make]))('refuses %s before the doctor or cdk runs', async (_what, make) => {
    const cdkJson = path.join(scratchDir('cdk-json-'), 'cdk.json');
    writeFileSync(cdkJson, JSON.stringify({ context: { [CONFIG_CONTEXT_KEY]: BLOCK } }));
    vi.stubEnv('PORTFOLIO_CDK_JSON', cdkJson);
    vi.stubEnv('AWS_ENDPOINT_URL', 'http://127.0.0.1:9');
    await expect(runDeploy(['--assembly', make(), '--require-approval', 'never'])).rejects.toThrow(
      /holds what this app does not make; nothing was deployed/,
    );
  });
});
