/**
 * The CDK app (cdk.json "app"). Checks the deploy configuration first: a missing or malformed value
 * stops here with its key named, before anything is built.
 */
import { App } from 'aws-cdk-lib';
import { ConfigError, CONFIG_CONTEXT_KEY, parseConfig } from '../config/portfolio-config';
import { addPortfolioStacks } from '../lib/portfolio-app';

const app = new App();
try {
  const config = parseConfig(app.node.tryGetContext(CONFIG_CONTEXT_KEY));
  addPortfolioStacks(app, config, { account: process.env.CDK_DEFAULT_ACCOUNT });
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
app.synth();
