/**
 * `npm run rotate-origin-secret [-- --stage NAME]`: replaces the origin secret now (docs/deploy.md, "Rotate
 * the origin secret now"), as the stack's weekly schedule does. It finds the secret itself, among the
 * deployed stack's resources (CloudFormation's list; the stack holds one Secrets Manager secret, the
 * origin secret), and asks Secrets Manager to rotate it: the stack's rotation function makes the new
 * value and writes it to CloudFront's key value store, and the API keeps accepting the previous value
 * while CloudFront's edges catch up, so no visitor's request is refused. Prints the secret's name, never
 * its value.
 */
import { CloudFormationClient, DescribeStackResourcesCommand, type StackResource } from '@aws-sdk/client-cloudformation';
import { RotateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { loadConfigFromCdkJson, type PortfolioConfig } from '../../config/portfolio-config';
import { awsClient, errorName, explainAwsProblem, isStackMissing } from '../kit/aws';
import { overridesOf, STAGE_FLAGS } from '../kit/cdk';
import { CommandError } from '../kit/command';
import { parseFlags } from '../kit/flags';

export const USAGE = 'Usage: npm run rotate-origin-secret [-- --stage NAME]';

export interface RotationClients {
  cloudFormation: Pick<CloudFormationClient, 'send'>;
  secretsManager: Pick<SecretsManagerClient, 'send'>;
}

/** The origin secret's ARN among the stack's resources (its logical id starts with the construct's path, OriginSecret). */
export async function findOriginSecret(stackName: string, cloudFormation: RotationClients['cloudFormation']): Promise<string> {
  let resources: StackResource[];
  try {
    ({ StackResources: resources = [] } = await cloudFormation.send(new DescribeStackResourcesCommand({ StackName: stackName })));
  } catch (error) {
    if (isStackMissing(error))
      throw new CommandError(`The stack ${stackName} is not deployed (npm run deploy makes it, and its origin secret).`);
    throw error;
  }
  const secrets = resources.filter((r) => r.ResourceType === 'AWS::SecretsManager::Secret');
  const origin = secrets.find((r) => r.LogicalResourceId?.startsWith('OriginSecret')) ?? (secrets.length === 1 ? secrets[0] : undefined);
  if (!origin?.PhysicalResourceId) {
    throw new CommandError(`The stack ${stackName} has no origin secret among its resources: deploy this version first (npm run deploy).`);
  }
  return origin.PhysicalResourceId;
}

/** Finds the secret and starts its rotation; returns what to print. */
export async function rotateOriginSecret(config: Pick<PortfolioConfig, 'stackName' | 'region'>, clients: RotationClients): Promise<string> {
  const arn = await findOriginSecret(config.stackName, clients.cloudFormation);
  try {
    await clients.secretsManager.send(new RotateSecretCommand({ SecretId: arn }));
  } catch (error) {
    // Secrets Manager runs one rotation at a time.
    if (errorName(error) === 'InvalidRequestException' && /rotation.*in progress|already/i.test(String((error as Error).message))) {
      throw new CommandError(
        `A rotation of ${arn} is already under way: it finishes by itself within a minute; run this again after it if you need another.`,
      );
    }
    throw error;
  }
  const name = arn.slice(arn.lastIndexOf(':') + 1).replace(/-[A-Za-z0-9]{6}$/, '');
  return (
    `✓ Rotation of the origin secret ${name} (stack ${config.stackName}, ${config.region}) started.\n` +
    "  The stack's rotation function writes the new value to CloudFront within a minute; the API accepts the\n" +
    "  previous one meanwhile, so no visitor is refused. Its log: the rotation function's log group in CloudWatch."
  );
}

/** `npm run rotate-origin-secret`'s command line: only --stage (and --trial, as for deploy). */
export async function rotateCommand(
  argv: readonly string[],
  clients?: RotationClients,
  print: (text: string) => void = (text) => console.log(text),
): Promise<number> {
  const { values } = parseFlags(argv, STAGE_FLAGS);
  const config = loadConfigFromCdkJson(undefined, overridesOf({ stage: values.stage as string | undefined, trial: values.trial === true }));
  const used = clients ?? {
    cloudFormation: awsClient(CloudFormationClient, { region: config.region }),
    secretsManager: awsClient(SecretsManagerClient, { region: config.region }),
  };
  try {
    print(await rotateOriginSecret(config, used));
    return 0;
  } catch (error) {
    const explained = explainAwsProblem(error, { local: 'The secret lives in your AWS account only.' });
    if (explained) throw new CommandError(explained);
    throw error;
  }
}
