/** `npm run doctor`'s row for the deployed API's route circuit breakers (kit/breakers.ts reads them). */
import type { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { PortfolioConfig } from '../../config/portfolio-config';
import { errorText } from '../kit/aws';
import { isAccessDenied } from './budget';
import { describeBreakers, readBreakers } from '../kit/breakers';
import { deployedApiId } from '../kit/stack-outputs';
import type { CheckResult } from '../report';

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
    const numbers = Object.entries(config.circuitBreaker).map(([route, n]) => `${route} ${n}`).join(', ');
    if (reading.tripped.length === 0) return { check: CHECK, status: 'pass', detail: `${describeBreakers(reading)} (a day: ${numbers})` };
    return {
      check: CHECK,
      status: 'warn',
      detail: describeBreakers(reading),
      fix:
        'A route passed its number of requests for the day (circuitBreaker in cdk.json) and the owner was mailed; it comes ' +
        'back by itself at midnight UTC. If the traffic is real, raise the number and `npm run deploy`: the next check ' +
        '(within 15 minutes) gives the route its throttle back.',
    };
  } catch (error) {
    return {
      check: CHECK,
      status: isAccessDenied(error) ? 'warn' : 'fail',
      detail: `could not read the API stage (${errorText(error)})`,
      fix: 'Let these credentials call apigateway:GET on the API, then `npm run doctor` again.',
    };
  }
}
