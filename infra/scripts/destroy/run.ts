/**
 * `npm run destroy -- --stage NAME`: removes a preview copy completely: `cdk destroy` of its stack, then
 * its site bucket, which every stage keeps on `cdk destroy` and which this command empties and deletes.
 * `npm run destroy -- --live` does the same for the live site, and for its preview bucket (pull-request
 * previews' files, kept by `cdk destroy` like the site bucket). Other arguments go to `cdk destroy`
 * (e.g. `--force` to skip its question).
 */
import { S3Client } from '@aws-sdk/client-s3';
import { CONTEXT_OVERRIDES, usesTestRecaptcha } from '../../config/portfolio-config';
import { STACK_OUTPUT_KEYS } from '../../shared/stack-output-keys';
import { awsClient } from '../kit/aws';
import { checkedConfig, contextArgs, runCdk, STAGE_FLAGS } from '../kit/cdk';
import { EXIT, UsageError } from '../kit/command';
import { parseFlags } from '../kit/flags';
import { stackOutputs } from '../kit/stack-outputs';
import { emptyAndDeleteBucket } from './bucket';

export const USAGE =
  'Usage: npm run destroy -- --stage NAME (a preview), or npm run destroy -- --live (the live site) [cdk destroy options]';

export async function runDestroy(argv: readonly string[]): Promise<number> {
  const { values, rest } = parseFlags(argv, { ...STAGE_FLAGS, live: { type: 'boolean' } }, { passThrough: true });
  const args = { stage: values.stage as string | undefined, trial: values.trial === true };
  if (!args.stage && values.live !== true) throw new UsageError('npm run destroy needs --stage NAME or --live');
  const config = checkedConfig({ forDeploy: false, args });
  const outputs = await stackOutputs(config.stackName, config.region);
  if (!outputs) {
    console.error(`No stack ${config.stackName} in ${config.region}: nothing to destroy.`);
    return EXIT.done;
  }
  // The site key does not matter for removing the stack: the app must not refuse to synthesize it.
  const context = [...contextArgs(config), '-c', `${CONTEXT_OVERRIDES.trial}=true`];
  if (runCdk(['destroy', '--all', ...context, ...rest], { AWS_REGION: config.region }) !== 0) return EXIT.failed;
  // cdk destroy also exits 0 when the owner answers "no": the bucket goes only once the stack has.
  if (await stackOutputs(config.stackName, config.region)) {
    console.error(`${config.stackName} still exists: its bucket was left alone.`);
    return EXIT.failed;
  }
  for (const [key, what] of [
    [STACK_OUTPUT_KEYS.siteBucket, 'site'],
    [STACK_OUTPUT_KEYS.previewBucket, 'preview'],
  ] as const) {
    const bucket = outputs[key];
    if (!bucket) continue;
    const count = await emptyAndDeleteBucket(bucket, awsClient(S3Client, { region: config.region }));
    console.error(`Deleted the ${what} bucket ${bucket} (${count} objects).`);
  }
  const parameter = usesTestRecaptcha(config) ? '' : `the SSM parameter ${config.recaptchaSecretParameter} and `;
  console.error(`${config.stackName} is gone. Left on purpose: ${parameter}your SES identities (shared with the other stages).`);
  return EXIT.done;
}
