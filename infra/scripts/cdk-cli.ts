/**
 * Transitional: github-setup.ts and github/previews.ts still import this path until they join the kit
 * (kit/cdk.ts). Their own error path prints the message and exits 1, so the cdk.json hint goes into it.
 */
import { ConfigError, type PortfolioConfig } from '../config/portfolio-config';
import { checkedConfig as checkedKitConfig } from './kit/cdk';
import { CONFIG_HINT } from './kit/command';

export { runCdk, runNpmScript } from './kit/cdk';

export function checkedConfig(options: { forDeploy: boolean }): PortfolioConfig {
  try {
    return checkedKitConfig(options);
  } catch (error) {
    if (error instanceof ConfigError) throw new Error(`${error.message}\n${CONFIG_HINT}`, { cause: error });
    throw error;
  }
}
