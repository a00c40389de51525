/** npm run setup, step 3: region. */
import { AWS_REGION_PATTERN } from '../../../config/patterns';
import { checkSesRegion } from '../../doctor/checks';
import { SetupError } from '../context';
import { type Step, result } from './step';

/**
 * Regions offered first, each listed as an SES API endpoint in AWS General Reference, "Amazon Simple
 * Email Service endpoints and quotas" (https://docs.aws.amazon.com/general/latest/gr/ses.html), which
 * lists more: "another region" takes any name, and the account itself is then asked whether SES answers
 * there (the list is a shortcut, never the judge).
 */
export const SES_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'af-south-1',
  'ap-south-1',
  'ap-south-2',
  'ap-southeast-3',
  'ap-northeast-3',
  'eu-west-1',
] as const;
const OTHER_REGION = 'other';

export const regionStep: Step = {
  id: 'region',
  async run(ctx) {
    let check = await checkSesRegion(ctx.clients.sesv2, ctx.config.region);
    if (check.account) return [result('SES in region', 'ready', check.result.detail)];
    if (!/not offered/.test(check.result.detail)) throw new SetupError(`${check.result.detail}: ${check.result.fix}`);
    ctx.print(`SES in region: ${check.result.detail}`);
    let region: string = await ctx.choose(
      {
        id: 'region',
        message: `SES is not offered in ${ctx.config.region}; the stack's region`,
        options: [...SES_REGIONS.map((r) => ({ value: r, label: r })), { value: OTHER_REGION, label: 'another region (type its name)' }],
      },
      'region',
    );
    if (region === OTHER_REGION) {
      region = (
        await ctx.deps.prompter.text({
          id: 'region-other',
          message: 'The region (e.g. eu-central-1); setup then asks AWS whether SES answers there',
          validate: (v) => (AWS_REGION_PATTERN.test(v.trim()) ? undefined : `"${v}" is not a region name such as eu-central-1`),
        })
      ).trim();
    }
    check = await checkSesRegion(ctx.deps.clients(region).sesv2, region);
    if (!check.account)
      throw new SetupError(`region ${region}: ${check.result.detail}; pick one of ${SES_REGIONS.join(', ')} or another SES region`);
    await ctx.writeConfig({ region });
    return [result('SES in region', 'changed', `region ${region} (cdk.json): ${check.result.detail}`)];
  },
};
