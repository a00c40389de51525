/**
 * The CDK app (cdk.json "app"). Checks the deploy configuration first: a missing or malformed value
 * (or Google's test site key without a trial) stops here with its key named, before anything is built.
 * The scripts pass the stage, a trial and the site's learned address as context (portfolio:stage,
 * portfolio:trial, portfolio:siteUrl).
 */
import { App } from 'aws-cdk-lib';
import { ConfigError, configFromContext } from '../config/portfolio-config';

/** A configuration fault is the owner's to fix: its message alone, exit 1 (anything else is a bug: thrown). */
function orConfigExit<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const app = new App();
const config = orConfigExit(() => configFromContext((key) => app.node.tryGetContext(key)));
// The stacks (and every construct library they load) only once the configuration is known to be good:
// a bad key is reported in about a second, not after loading all of them.
const { addPortfolioStacks } = await import('../lib/portfolio-app');
orConfigExit(() => addPortfolioStacks(app, config, { account: process.env.CDK_DEFAULT_ACCOUNT }));
app.synth();
