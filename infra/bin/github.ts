/**
 * The CDK app of `npm run github-setup` (infra/scripts/github-setup/run.ts passes its context): the GitHub
 * OIDC provider and the two roles the workflows assume. Context: github:repository (OWNER/NAME),
 * github:ownerId and github:repositoryId (immutable subjects; absent: name-only), github:providerArn
 * (the account's provider, imported).
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ConfigError, loadConfigFromCdkJson } from '../config/portfolio-config';
import { githubSetupStackName, repositoryFromContext } from '../lib/deploy-fence';
import { GitHubDeployStack } from '../lib/github-deploy-stack';

const app = new App();
try {
  const config = loadConfigFromCdkJson();
  const context = (key: string) => app.node.tryGetContext(key) as string | undefined;
  new GitHubDeployStack(app, githubSetupStackName(config.stackName), {
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: config.region },
    description: 'GitHub Actions deploys without AWS keys: the GitHub OIDC provider and the production and preview roles',
    repository: repositoryFromContext(context),
    existingProviderArn: context('github:providerArn') || undefined,
    portfolioStackName: config.stackName,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
} catch (error) {
  // A bad configuration or context: one clear message (the setup script passes the context).
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
  process.exit(1);
}
app.synth();
