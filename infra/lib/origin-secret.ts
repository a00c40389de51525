import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_SECRET_ENV } from '../../contract/api-headers';
import { createPortfolioFunction } from './route-functions';

/** The CloudFront Function that puts the secret on /api/* requests. */
export const API_ORIGIN_FUNCTION_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'cloudfront', 'api-origin.js');

/**
 * How often the origin secret is replaced. The API's functions accept the previous value too, so an
 * edge that has not yet read the new one from the key value store is not refused.
 */
export const ORIGIN_SECRET_ROTATION = Duration.days(7);

export interface OriginSecretProps {
  readonly projectRoot: string;
  readonly logRetention: logs.RetentionDays;
}

/**
 * The value CloudFront sends the API and the API's functions check (contract/api-headers.ts): a
 * Secrets Manager secret whose first value Secrets Manager generates in the account (the template
 * holds only its length and alphabet), replaced every ORIGIN_SECRET_ROTATION by
 * functions/origin-rotation, which also writes it to a CloudFront key value store; a viewer-request
 * CloudFront Function on /api/* reads the store and sets the header. No template, environment
 * variable or output holds the value: only the secret's and the store's ARNs. Secrets Manager rotates
 * once as soon as the schedule is created, so the store is filled on the first deploy.
 */
export class OriginSecret extends Construct {
  readonly secret: secretsmanager.Secret;
  readonly store: cloudfront.KeyValueStore;
  readonly viewerRequest: cloudfront.Function;
  readonly rotation: lambda.IFunction;

  constructor(scope: Construct, id: string, props: OriginSecretProps) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      // Named after the stack, so a preview's deploy role can be fenced to its own (deploy-fence.ts).
      secretName: `${Stack.of(this).stackName}-origin-secret`,
      description: 'The value CloudFront sends the API in x-portfolio-origin (rotated; read by the API functions only)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    });
    this.store = new cloudfront.KeyValueStore(this, 'Store', {
      comment: 'The origin secret CloudFront sends the API (written by the rotation function)',
    });
    const { fn } = createPortfolioFunction(this, 'Rotation', {
      projectRoot: props.projectRoot,
      logRetention: props.logRetention,
      entry: 'functions/origin-rotation/handler.ts',
      description: 'Rotates the origin secret and writes it to the CloudFront key value store (functions/origin-rotation)',
      roleDescription: 'origin secret rotation: its own log group, the origin secret, the key value store, nothing else',
      timeoutSeconds: 30,
      serviceName: 'origin-rotation',
      memorySize: 256,
      environment: { ORIGIN_KVS_ARN: this.store.keyValueStoreArn },
    });
    this.rotation = fn;
    // The KeyValueStore data-plane actions the function calls ("Actions defined by Amazon CloudFront
    // KeyValueStore", Service Authorization Reference: cloudfront-keyvaluestore:DescribeKeyValueStore,
    // GetKey, PutKey), on this store only.
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'WriteTheOriginSecretStoreOnly',
        actions: ['cloudfront-keyvaluestore:DescribeKeyValueStore', 'cloudfront-keyvaluestore:GetKey', 'cloudfront-keyvaluestore:PutKey'],
        resources: [this.store.keyValueStoreArn],
      }),
    );
    // Grants the function the secret's rotation actions and Secrets Manager the right to invoke it.
    this.secret.addRotationSchedule('Rotation', { rotationLambda: fn, automaticallyAfter: ORIGIN_SECRET_ROTATION });
    Validations.of(fn.role!).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        "aws-cdk-lib's rotation schedule grants secretsmanager:GetRandomPassword, which takes no resource; the function makes its own random value and never calls it.",
    });
    this.viewerRequest = new cloudfront.Function(this, 'ViewerRequest', {
      comment: 'Sets x-portfolio-origin on /api/* from the key value store',
      code: cloudfront.FunctionCode.fromFile({ filePath: API_ORIGIN_FUNCTION_FILE }),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      keyValueStore: this.store,
    });
  }

  /** The environment variable that names the secret (its ARN, never its value) to a function. */
  get environment(): Record<string, string> {
    return { [ORIGIN_SECRET_ENV]: this.secret.secretArn };
  }

  /** Lets a function read the secret's versions (GetSecretValue), nothing else. */
  grantRead(fn: lambda.IFunction): void {
    this.secret.grantRead(fn);
  }
}
