/** `npm run doctor`'s row for the deployed API's route circuit breakers (kit/breakers.ts reads them). */
import { BREAKER_CHECK_MINUTES } from '../../../contract/breaker';
import { describePlanMonths } from '../../../contract/cost-model';
import type { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { type PortfolioConfig, previewCloudFrontPlanOf } from '../../config/portfolio-config';
import { errorText } from '../kit/aws';
import { isAccessDenied } from './budget';
import { describeBreakers, readBreakers } from '../kit/breakers';
import { deployedApiId } from '../kit/stack-outputs';
import { type CheckResult, row, unreadable } from '../report';

const CHECK = 'Route breakers';

/** No row before the first deploy; a warning while a route is tripped; a failure when the stage cannot be read. */
export async function checkBreakers(
  cloudFormation: CloudFormationClient,
  apiGateway: ApiGatewayV2Client,
  config: PortfolioConfig,
  now: Date,
): Promise<CheckResult | undefined> {
  let apiId: string | undefined;
  try {
    apiId = await deployedApiId(config.stackName, config.region, cloudFormation);
  } catch {
    return undefined; // the stack's own rows say why it cannot be read
  }
  if (!apiId) return undefined;
  try {
    const reading = await readBreakers(apiGateway, apiId, now);
    const numbers = Object.entries(config.circuitBreaker)
      .map(([route, n]) => `${route} ${n}`)
      .join(', ');
    if (reading.tripped.length === 0) {
      const months = describePlanMonths(config.cloudFrontPlan, config.monthlyBudgetUsd, previewCloudFrontPlanOf(config));
      return row(
        CHECK,
        'pass',
        `${describeBreakers(reading)} (counted a day: ${numbers}, from $${config.monthlyBudgetUsd} a month; ${months})`,
      );
    }
    return row(
      CHECK,
      'warn',
      describeBreakers(reading),
      'A route passed its number of counted requests for the day (from monthlyBudgetUsd, or circuitBreaker, in cdk.json), or ' +
        'many addresses sent past their own share, and the owner was mailed; it comes back by itself at midnight UTC. If the ' +
        'traffic is real, raise monthlyBudgetUsd and `npm run deploy`: the next check ' +
        `(within ${BREAKER_CHECK_MINUTES} minute${BREAKER_CHECK_MINUTES === 1 ? '' : 's'}) gives the route its throttle back.`,
    );
  } catch (error) {
    const status = isAccessDenied(error) ? 'warn' : 'fail';
    return unreadable(CHECK, `could not read the API stage (${errorText(error)})`, 'apigateway:GET on the API', status);
  }
}
