/** What the owner's commands read back from a deployed stack: the API among its resources, the plan subscriptions and their approval. */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAws, type FakeAws } from '../../../tools/fake-aws';
import { deployedApiId, deployedPlanSubscriptions, planApprovalNote, planSubscriptionsFromOutputsFile } from './stack-outputs';
import { scratchDir } from '../../../tools/scratch';

let aws: FakeAws;
let cfn: CloudFormationClient;

beforeAll(async () => {
  aws = await startFakeAws();
  cfn = new CloudFormationClient({
    region: 'us-east-1',
    endpoint: aws.url,
    credentials: { accessKeyId: 'AKIAFAKE', secretAccessKey: 'fake' },
  });
});
afterAll(async () => {
  cfn.destroy();
  await aws.stop();
});

describe('the deployed API', () => {
  it("is found among the stack's resources (paged), with no output naming it; none before a deploy", async () => {
    expect(await deployedApiId('Portfolio', 'us-east-1', cfn)).toBeUndefined();
    await fetch(`${aws.url}/__hooks/deploy?stack=Portfolio`, { method: 'POST' });
    const id = await deployedApiId('Portfolio', 'us-east-1', cfn);
    expect(id).toMatch(/^api\d+x$/);
    expect(Object.keys(aws.state.apis)).toContain(id);
  });
});

describe('the plan subscriptions', () => {
  const ARNS = [
    'arn:aws:pricingplanmanager::123456789012:subscription/site',
    'arn:aws:pricingplanmanager::123456789012:subscription/previews',
  ];

  it("are read from the outputs file: the site's and the previews', none when absent", () => {
    const file = path.join(scratchDir('outputs-'), 'outputs.json');
    writeFileSync(
      file,
      JSON.stringify({ Portfolio: { SiteUrl: 'https://x', SitePlanSubscriptionArn: ARNS[0], PreviewPlanSubscriptionArn: ARNS[1] } }),
    );
    expect(planSubscriptionsFromOutputsFile(file, 'Portfolio')).toEqual({ site: ARNS[0], previews: ARNS[1] });
    expect(planSubscriptionsFromOutputsFile(file, 'Other')).toEqual({});
    expect(planSubscriptionsFromOutputsFile(path.join(tmpdir(), 'missing.json'), 'Portfolio')).toEqual({});
  });

  it('on a paid tier, the deploy names each approval and its price; a Free subscription and pay-as-you-go need none', () => {
    const arns = { site: ARNS[0], previews: ARNS[1] };
    const note = planApprovalNote(deployedPlanSubscriptions(arns, { site: 'pro', previews: 'business' }))!;
    expect(note).toContain('waits for your approval');
    expect(note).toContain('the site, Pro plan, $15 a month:');
    expect(note).toContain('the previews, Business plan, $200 a month:');
    for (const arn of ARNS) {
      expect(note).toContain(`aws pricing-plan-manager get-subscription --region us-east-1 --arn ${arn}`);
      expect(note).toContain(`aws pricing-plan-manager approve-paid-subscription --region us-east-1 --arn ${arn} --if-match ETAG`);
    }
    const mixed = planApprovalNote(deployedPlanSubscriptions(arns, { site: 'pro', previews: 'free' }))!;
    expect(mixed).not.toContain(ARNS[1]);
    expect(planApprovalNote(deployedPlanSubscriptions(arns, { site: 'free', previews: 'free' }))).toBeUndefined();
    expect(planApprovalNote(deployedPlanSubscriptions({}, { site: 'payAsYouGo', previews: 'payAsYouGo' }))).toBeUndefined();
  });
});
