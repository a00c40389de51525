import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { AssetHashType, DockerImage, Stack } from 'aws-cdk-lib';
import * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';
import { REPO_ROOT } from '../config/portfolio-config';
import { checkBuildMatchesPolicy, POSTBUILD_REPORT_FILE, SPA_FALLBACK_FILE, WEB_BUILD_DIR, WEB_CLIENT_DIR } from '../shared/build-output';
import { INLINE_SCRIPT_HASHES } from '../shared/security-headers';

export interface WebBuildProps {
  /** Build variables injected into `npm run build` (VITE_*), from the deploy configuration. */
  readonly buildEnv: Record<string, string>;
  /**
   * A directory shaped like web/build (client/ and postbuild.json) to use as is, instead of
   * building at synth. Tests use it; a real deploy leaves it out so every synth ships a fresh build.
   */
  readonly prebuiltDir?: string;
  /** The repository root where `npm run build` runs. */
  readonly projectRoot: string;
}

/**
 * The built site as a CDK asset. Without prebuiltDir the site is built during synth by local asset
 * bundling (no Docker), with the configuration's endpoint, keys and ids injected, so a plain
 * `npx cdk deploy` ships what the repository holds now. The build's pages are checked against the
 * CSP (which comes from source, never from the build) and the list of top-level objects is read only
 * after that build ran.
 */
export class WebBuild extends Construct {
  readonly asset: s3assets.Asset;
  /** CloudFront paths to invalidate after a deploy: everything but the content-hashed assets/. */
  readonly invalidationPaths: string[];

  constructor(scope: Construct, id: string, props: WebBuildProps) {
    super(scope, id);
    let buildDir: string;
    if (props.prebuiltDir) {
      buildDir = props.prebuiltDir;
      this.asset = new s3assets.Asset(this, 'Site', { path: path.join(buildDir, 'client') });
    } else {
      // web/build under the project root (WEB_BUILD_DIR for this repository).
      buildDir = path.join(props.projectRoot, path.relative(REPO_ROOT, WEB_BUILD_DIR));
      this.asset = new s3assets.Asset(this, 'Site', {
        path: props.projectRoot,
        // Hash what was built, not the source tree (which includes node_modules).
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never used: local bundling always succeeds or throws. CDK requires an image.
          image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:20-slim'),
          environment: props.buildEnv,
          local: {
            tryBundle(outputDir: string): boolean {
              buildSite(props.projectRoot, props.buildEnv, outputDir);
              return true;
            },
          },
        },
      });
    }

    const built = existsSync(path.join(buildDir, POSTBUILD_REPORT_FILE));
    if (!built && !props.prebuiltDir && !Stack.of(this).bundlingRequired) {
      // `cdk deploy OtherStack` or tests with bundling off: this stack's template is not deployed,
      // so it must synthesize without a build; a deploy of this stack always bundles first.
      this.invalidationPaths = [`/${SPA_FALLBACK_FILE}`];
      return;
    }
    // The pages must carry no inline script the source's policy would block (a stale build).
    checkBuildMatchesPolicy(buildDir, INLINE_SCRIPT_HASHES);
    this.invalidationPaths = invalidationPathsFor(path.join(buildDir, 'client'));
  }
}

/** Runs the production web build with the given variables and copies its client files to outputDir. */
export function buildSite(projectRoot: string, buildEnv: Record<string, string>, outputDir: string): void {
  process.stderr.write(`Building the site (npm run build) with ${Object.keys(buildEnv).join(', ')}…\n`);
  execFileSync('npm', ['run', 'build'], {
    cwd: projectRoot,
    env: { ...process.env, ...buildEnv },
    // The CDK CLI reads the app's stdout for nothing, but keep it clean: all build output to stderr.
    stdio: ['ignore', 2, 2],
  });
  cpSync(path.join(projectRoot, path.relative(REPO_ROOT, WEB_CLIENT_DIR)), outputDir, { recursive: true });
}

/**
 * One CloudFront path per top-level entry of the site except assets/: "/name" for a file,
 * "/name/*" for a folder (the function rewrites /home to /home/index.html before the cache lookup,
 * so that is the key to clear). A wildcard path counts as one invalidation path.
 */
export function invalidationPathsFor(clientDir: string): string[] {
  const paths = readdirSync(clientDir, { withFileTypes: true })
    .filter((entry) => entry.name !== 'assets')
    .map((entry) => (entry.isDirectory() ? `/${entry.name}/*` : `/${entry.name}`))
    .sort();
  if (paths.length === 0) throw new Error(`${clientDir} holds nothing but assets/: is the build complete?`);
  return paths;
}
