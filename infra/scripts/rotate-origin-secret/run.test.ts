import { DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { RotateSecretCommand } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { rotateOriginSecret, type RotationClients } from './run';

const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:Portfolio-origin-secret-AbC123';
const CONFIG = { stackName: 'Portfolio', region: 'us-east-1' };

/** Clients that answer as AWS does, recording what was asked. */
function clients(
  resources: { ResourceType: string; LogicalResourceId: string; PhysicalResourceId: string }[] | Error,
  rotate: Error | null = null,
) {
  const sent: unknown[] = [];
  const fake: RotationClients = {
    cloudFormation: {
      send: (async (command: unknown) => {
        sent.push(command);
        if (resources instanceof Error) throw resources;
        expect(command).toBeInstanceOf(DescribeStackResourcesCommand);
        return { StackResources: resources };
      }) as RotationClients['cloudFormation']['send'],
    },
    secretsManager: {
      send: (async (command: unknown) => {
        sent.push(command);
        if (rotate) throw rotate;
        return {};
      }) as RotationClients['secretsManager']['send'],
    },
  };
  return { fake, sent };
}

const awsError = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('npm run rotate-origin-secret', () => {
  it("finds the origin secret among the stack's resources and rotates it, printing its name and never a value", async () => {
    const { fake, sent } = clients([
      { ResourceType: 'AWS::Lambda::Function', LogicalResourceId: 'OriginRotation1234', PhysicalResourceId: 'fn' },
      { ResourceType: 'AWS::SecretsManager::Secret', LogicalResourceId: 'OriginSecretE8F3A1B2', PhysicalResourceId: ARN },
    ]);
    const printed = await rotateOriginSecret(CONFIG, fake);
    expect((sent[0] as DescribeStackResourcesCommand).input).toEqual({ StackName: 'Portfolio' });
    expect(sent[1]).toBeInstanceOf(RotateSecretCommand);
    expect((sent[1] as RotateSecretCommand).input).toEqual({ SecretId: ARN });
    expect(printed).toMatch(/^✓ Rotation of the origin secret Portfolio-origin-secret \(stack Portfolio, us-east-1\) started\./);
    expect(printed).toContain('accepts the\n  previous one meanwhile');
  });

  it('says the stack is not deployed, or lacks the secret, in one line', async () => {
    await expect(
      rotateOriginSecret(CONFIG, clients(awsError('ValidationError', 'Stack with id Portfolio does not exist')).fake),
    ).rejects.toThrow('The stack Portfolio is not deployed (npm run deploy makes it, and its origin secret).');
    await expect(rotateOriginSecret(CONFIG, clients([]).fake)).rejects.toThrow(
      'The stack Portfolio has no origin secret among its resources',
    );
  });

  it('says when a rotation is already under way', async () => {
    const { fake } = clients(
      [{ ResourceType: 'AWS::SecretsManager::Secret', LogicalResourceId: 'OriginSecretE8F3A1B2', PhysicalResourceId: ARN }],
      awsError(
        'InvalidRequestException',
        'A previous rotation isn’t complete. That rotation will be reattempted. Rotation is already in progress.',
      ),
    );
    await expect(rotateOriginSecret(CONFIG, fake)).rejects.toThrow(/already under way: it finishes by itself/);
  });
});
