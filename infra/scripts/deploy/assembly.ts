/**
 * What the job holding the production role accepts from the job that built the cloud assembly. That
 * build ran every dependency's install and build code, so its output is checked, not trusted, before
 * any AWS call: the CDK CLI runs an asset's `executable` source as a command and builds a container
 * image's Dockerfile, both where the credentials are, and CloudFormation creates whatever a template
 * names. An assembly passes only when it holds what this commit's app makes:
 *  - artifacts of the kinds a synth writes (stacks, their asset manifests, the tree, the flag report),
 *    no nested assembly;
 *  - exactly the stacks the configuration makes (portfolioStackNames), each in its own region, deployed
 *    through the CDK bootstrap's own roles of that account and region;
 *  - templates with no transform (a macro runs code) and only resource types this app makes
 *    (DEPLOYABLE_RESOURCE_TYPES, held to the synthesized stacks by their tests), every role within the
 *    fence's boundary and every alarm with its actions on;
 *  - file assets that are files or folders inside the assembly (no symbolic link), published to the
 *    bootstrap's staging bucket with its publishing role; no `executable` source, no container image,
 *    no asset named in stack metadata (the CLI's older asset form, which can build images).
 * Asset manifest format: the CDK's cloud-assembly-schema, "assets.json" (files, dockerImages, source
 * path/packaging/executable): https://github.com/aws/aws-cdk-cli/blob/main/packages/%40aws-cdk/cloud-assembly-schema/lib/assets/file-asset.ts
 */
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { CLOUDFRONT_CERTIFICATE_REGION, liveStackName, type PortfolioConfig, portfolioStackNames } from '../../config/portfolio-config';
import { bootstrapNames, boundaryPolicyName } from '../../lib/deploy-fence';

/**
 * Every CloudFormation resource type this app's stacks hold (the site, its API and functions, the
 * archive, alarms, the preview distribution, the CloudFront plans' subscriptions and web ACLs, the API's
 * own name behind a Route 53 domain, the us-east-1 certificate stack and its cross-region references). A type the app starts to use is added here, or the production deploy refuses it; the
 * stack tests fail first (portfolio-stack, domain-cross-region and stages tests).
 */
export const DEPLOYABLE_RESOURCE_TYPES: ReadonlySet<string> = new Set([
  'AWS::ApiGatewayV2::Api',
  'AWS::ApiGatewayV2::ApiMapping',
  'AWS::ApiGatewayV2::DomainName',
  'AWS::ApiGatewayV2::Integration',
  'AWS::ApiGatewayV2::Route',
  'AWS::ApiGatewayV2::Stage',
  // The CDK CLI's version report (a template-only marker that makes nothing), which `cdk synth` adds.
  'AWS::CDK::Metadata',
  'AWS::CertificateManager::Certificate',
  'AWS::CloudFront::CachePolicy',
  'AWS::CloudFront::Distribution',
  'AWS::CloudFront::Function',
  'AWS::CloudFront::KeyValueStore',
  'AWS::CloudFront::OriginAccessControl',
  'AWS::CloudFront::OriginRequestPolicy',
  'AWS::CloudFront::ResponseHeadersPolicy',
  'AWS::CloudWatch::Alarm',
  'AWS::CloudWatch::Dashboard',
  'AWS::DynamoDB::Table',
  'AWS::Events::Rule',
  'AWS::IAM::Policy',
  'AWS::IAM::Role',
  'AWS::Lambda::EventInvokeConfig',
  'AWS::Lambda::Function',
  'AWS::Lambda::LayerVersion',
  'AWS::Lambda::Permission',
  'AWS::Logs::LogGroup',
  'AWS::PricingPlanManager::Subscription',
  'AWS::Route53::RecordSet',
  'AWS::S3::Bucket',
  'AWS::S3::BucketPolicy',
  'AWS::SES::ConfigurationSet',
  'AWS::SES::ConfigurationSetEventDestination',
  'AWS::SNS::Subscription',
  'AWS::SNS::Topic',
  'AWS::SNS::TopicPolicy',
  'AWS::SQS::Queue',
  'AWS::SQS::QueuePolicy',
  'AWS::SSM::Parameter',
  'AWS::SecretsManager::ResourcePolicy',
  'AWS::SecretsManager::RotationSchedule',
  'AWS::SecretsManager::Secret',
  'AWS::WAFv2::WebACL',
  'Custom::CDKBucketDeployment',
  'Custom::CrossRegionExportReader',
  'Custom::CrossRegionExportWriter',
]);

/** The artifact kinds a synth of this app writes (cloud-assembly-schema, ArtifactType). */
const ARTIFACT_TYPES = new Set(['aws:cloudformation:stack', 'cdk:asset-manifest', 'cdk:tree', 'cdk:feature-flag-report']);
const PACKAGING = new Set(['file', 'zip']);
/** The CLI's older asset form, read from stack metadata: it may name a container image to build. */
const LEGACY_ASSET_METADATA = 'aws:cdk:asset';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the assembly's JSON is checked field by field
type Json = any;

/** What a deploy of this configuration accepts: its stacks (name → region) and the boundary every role carries. */
export interface Expected {
  readonly stacks: ReadonlyMap<string, string>;
  readonly boundary: string;
}

export function expectedOf(config: Pick<PortfolioConfig, 'stackName' | 'stage' | 'region' | 'domain'>): Expected {
  const names = portfolioStackNames(config);
  const stacks = new Map([[names.main, config.region]]);
  if (names.certificate) stacks.set(names.certificate, CLOUDFRONT_CERTIFICATE_REGION);
  return { stacks, boundary: boundaryPolicyName(liveStackName(config)) };
}

/** Every reason to refuse the assembly in dir; none means it holds only what this app makes. */
export function assemblyProblems(dir: string, expected: Expected): string[] {
  const problems: string[] = [];
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return [`${dir} does not exist`];
  }
  const manifest = readJson(root, 'manifest.json', problems);
  if (!manifest) return problems;
  const artifacts: Record<string, Json> = isObject(manifest.artifacts) ? manifest.artifacts : {};
  const stacks = new Map<string, Json>();
  for (const [id, artifact] of Object.entries(artifacts)) {
    const type = String(artifact?.type);
    if (!ARTIFACT_TYPES.has(type)) problems.push(`artifact ${id} is of type ${type}, which this app does not make`);
    else if (type === 'aws:cloudformation:stack') stacks.set(id, artifact);
    else if (type === 'cdk:asset-manifest') problems.push(...assetManifestProblems(root, id, artifact));
  }
  for (const name of expected.stacks.keys()) if (!stacks.has(name)) problems.push(`stack ${name} is missing`);
  for (const [id, artifact] of stacks) {
    const region = expected.stacks.get(id);
    if (region === undefined) problems.push(`stack ${id} is not one this app makes (${[...expected.stacks.keys()].join(', ')})`);
    else problems.push(...stackProblems(root, id, artifact, region, expected.boundary));
  }
  return problems;
}

function stackProblems(root: string, id: string, artifact: Json, region: string, boundary: string): string[] {
  const problems: string[] = [];
  const environment = /^aws:\/\/(\d{12})\/([a-z0-9-]+)$/.exec(String(artifact.environment));
  if (!environment || environment[2] !== region) {
    return [`stack ${id} is for ${String(artifact.environment)}: an account's ${region}, account named (synth with CDK_DEFAULT_ACCOUNT)`];
  }
  const names = bootstrapNames(environment[1]!, region);
  const properties: Json = artifact.properties ?? {};
  if (!isBootstrapRole(properties.assumeRoleArn, environment[1]!, names.deployRole))
    problems.push(`stack ${id} is deployed through ${String(properties.assumeRoleArn)}, not the bootstrap deploy role`);
  if (!isBootstrapRole(properties.cloudFormationExecutionRoleArn, environment[1]!, names.executionRole)) {
    problems.push(`stack ${id} is executed by ${String(properties.cloudFormationExecutionRoleArn)}, not the bootstrap execution role`);
  }
  const metadata = [
    artifact.metadata,
    typeof artifact.additionalMetadataFile === 'string' ? readJson(root, artifact.additionalMetadataFile, problems) : undefined,
  ];
  for (const entries of metadata.filter(isObject).flatMap((byPath) => Object.values(byPath))) {
    if (Array.isArray(entries) && entries.some((entry: Json) => entry?.type === LEGACY_ASSET_METADATA)) {
      problems.push(`stack ${id} names an asset in its metadata (the CLI's older form, which may build an image)`);
      break;
    }
  }
  const template = typeof properties.templateFile === 'string' ? readJson(root, properties.templateFile, problems) : undefined;
  if (!template) return [...problems, ...(typeof properties.templateFile === 'string' ? [] : [`stack ${id} names no template file`])];
  if (template.Transform !== undefined) problems.push(`stack ${id}'s template has a Transform (a macro runs code in the account)`);
  for (const [logicalId, resource] of Object.entries<Json>(isObject(template.Resources) ? template.Resources : {})) {
    if (!DEPLOYABLE_RESOURCE_TYPES.has(String(resource?.Type)))
      problems.push(`stack ${id}: ${logicalId} is a ${String(resource?.Type)}, a type this app does not make`);
    problems.push(...resourceProblems(`stack ${id}: ${logicalId}`, resource, boundary));
  }
  return problems;
}

/**
 * What the app's resources always say: a role carries the boundary (the execution role could not make it
 * otherwise, and the deploy would fail halfway), an alarm keeps its actions on.
 */
function resourceProblems(at: string, resource: Json, boundary: string): string[] {
  const properties: Json = resource?.Properties ?? {};
  if (resource?.Type === 'AWS::IAM::Role') {
    const value = properties.PermissionsBoundary;
    const last = typeof value === 'string' ? value : JSON.stringify(value?.['Fn::Join']?.[1]?.at?.(-1) ?? '');
    if (!String(last).replace(/"$/, '').endsWith(`:policy/${boundary}`)) return [`${at} is a role without the boundary ${boundary}`];
  }
  if (resource?.Type === 'AWS::CloudWatch::Alarm' && properties.ActionsEnabled === false)
    return [`${at} is an alarm with its actions switched off`];
  return [];
}

function assetManifestProblems(root: string, id: string, artifact: Json): string[] {
  const problems: string[] = [];
  const file = artifact?.properties?.file;
  const manifest = typeof file === 'string' ? readJson(root, file, problems) : undefined;
  if (!manifest) return typeof file === 'string' ? problems : [`asset manifest ${id} names no file`];
  if (isObject(manifest.dockerImages) && Object.keys(manifest.dockerImages).length > 0) {
    problems.push(`${file} builds container images (${Object.keys(manifest.dockerImages).join(', ')}): this app has none`);
  } else if (manifest.dockerImages !== undefined && !isObject(manifest.dockerImages)) problems.push(`${file}: dockerImages is not a map`);
  for (const [hash, asset] of Object.entries<Json>(isObject(manifest.files) ? manifest.files : {})) {
    const source: Json = asset?.source ?? {};
    const at = `${file}: asset ${hash}`;
    if (source.executable !== undefined) problems.push(`${at} is made by running ${JSON.stringify(source.executable)}`);
    if (!PACKAGING.has(String(source.packaging))) problems.push(`${at} is packaged as ${String(source.packaging)}, not file or zip`);
    if (typeof source.path !== 'string') problems.push(`${at} names no path inside the assembly`);
    else problems.push(...pathProblems(root, source.path, at));
    for (const [key, destination] of Object.entries<Json>(isObject(asset?.destinations) ? asset.destinations : {})) {
      const account = /:iam::(\d{12}):/.exec(String(destination?.assumeRoleArn))?.[1] ?? '';
      const names = bootstrapNames(account, String(destination?.region));
      if (
        !account ||
        !isBootstrapRole(destination.assumeRoleArn, account, names.filePublishingRole) ||
        destination.bucketName !== names.stagingBucket
      ) {
        problems.push(
          `${at} goes to ${String(destination?.bucketName)} through ${String(destination?.assumeRoleArn)} (${key}), not the bootstrap's staging bucket and publishing role`,
        );
      }
    }
  }
  return problems;
}

/** A relative path that stays inside the assembly, with no symbolic link on the way or below. */
function pathProblems(root: string, relative: string, at: string): string[] {
  const full = path.resolve(root, relative);
  if (path.isAbsolute(relative) || !isInside(root, full)) return [`${at}: ${relative} is outside the assembly`];
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    return [`${at}: ${relative} does not exist`];
  }
  if (real !== full || !isInside(root, real)) return [`${at}: ${relative} is a symbolic link`];
  const links = symbolicLinksUnder(full)
    .slice(0, 3)
    .map((l) => path.relative(root, l));
  return links.length > 0 ? [`${at} holds symbolic links (${links.join(', ')})`] : [];
}

function symbolicLinksUnder(file: string): string[] {
  const stat = lstatSync(file);
  if (stat.isSymbolicLink()) return [file];
  if (!stat.isDirectory()) return [];
  return readdirSync(file).flatMap((name) => symbolicLinksUnder(path.join(file, name)));
}

const isInside = (root: string, file: string) => file.startsWith(root + path.sep);
const isObject = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** arn:<partition>:iam::<account>:role/<name>, the partition as the synth writes it or resolved. */
function isBootstrapRole(arn: unknown, account: string, name: string): boolean {
  const match = /^arn:(?:\$\{AWS::Partition\}|aws(?:-[a-z]+)*):iam::(\d{12}):role\/(.+)$/.exec(String(arn));
  return match !== null && match[1] === account && match[2] === name;
}

/** A JSON file inside the assembly (a path leading out of it is a problem, as is bad JSON). */
function readJson(root: string, relative: string, problems: string[]): Json | undefined {
  const found = pathProblems(root, relative, 'the assembly');
  if (found.length > 0) {
    problems.push(...found);
    return undefined;
  }
  try {
    return JSON.parse(readFileSync(path.join(root, relative), 'utf8'));
  } catch (error) {
    problems.push(`${relative} is not JSON: ${(error as Error).message}`);
    return undefined;
  }
}
