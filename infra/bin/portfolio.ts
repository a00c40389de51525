/**
 * The CDK app (cdk.json "app"). Checks the deploy configuration first: a missing or malformed value
 * (or Google's test site key without a trial) stops here with its key named, before anything is built.
 * The scripts pass the stage, a trial and the site's learned address as context (portfolio:stage,
 * portfolio:trial, portfolio:siteUrl).
 */
import { App } from 'aws-cdk-lib';
import { ConfigError, configFromContext } from '../config/portfolio-config';
import { addPortfolioStacks } from '../lib/portfolio-app';

const app = new App();
try {
  const config = configFromContext((key) => app.node.tryGetContext(key));
  addPortfolioStacks(app, config, { account: process.env.CDK_DEFAULT_ACCOUNT });
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
app.synth();
