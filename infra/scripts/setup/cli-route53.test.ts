/**
 * The real `npm run setup` spawned against the fake AWS (tools/fake-aws.ts) on the paths that wait on
 * Route 53, the registrar, the SES review and the alarm mail: each scenario has an account of its own,
 * the waits are test hooks (the owner at the registrar, SES's DKIM scan, AWS's review, the owner clicking
 * SNS's mail), and every write the fake saw is asserted, so a run that should change nothing is seen to.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAwsState } from '../../../tools/fake-aws';
import { startSetupHarness, type SetupHarness } from '../../../tools/setup-harness';
import { boundaryPolicyDocument, executionPolicyDocument } from '../../lib/deploy-fence';

const ACCOUNT = '123456789012';
const SITE_KEY = 'a-real-looking-site-key-0123456789';
const SECRET_PARAMETER = '/portfolio/recaptcha-secret';
const READY_CONFIG = {
  ownerEmail: 'jane@owner-mail.dev',
  senderEmail: 'hello@jane.dev',
  recaptchaSecretParameter: SECRET_PARAMETER,
  recaptchaSiteKey: SITE_KEY,
  domain: null,
};
const FENCE = {
  partition: 'aws',
  account: '123456789012',
  region: 'us-east-1',
  portfolioStackName: 'Portfolio',
  liveSecretParameter: SECRET_PARAMETER,
};
/** Bootstrapped, both addresses verified, the secret stored: what the first runs leave. */
const READY_ACCOUNT: Partial<FakeAwsState> = {
  toolkits: { 'us-east-1': 33 },
  // Bootstrapped by setup: CloudFormation's role has the scoped execution policy within the boundary (setup/execution-policy.ts).
  toolkitPolicies: { 'us-east-1': 'arn:aws:iam::123456789012:policy/Portfolio-cdk-execution' },
  toolkitBoundaries: { 'us-east-1': 'Portfolio-cdk-boundary' },
  policies: {
    'arn:aws:iam::123456789012:policy/Portfolio-cdk-execution': [
      { id: 'v1', document: JSON.stringify(executionPolicyDocument(FENCE)), isDefault: true },
    ],
    'arn:aws:iam::123456789012:policy/Portfolio-cdk-boundary': [
      { id: 'v1', document: JSON.stringify(boundaryPolicyDocument(FENCE)), isDefault: true },
    ],
  },
  identities: { 'hello@jane.dev': 'SUCCESS', 'jane@owner-mail.dev': 'SUCCESS' },
  parameters: { [SECRET_PARAMETER]: { type: 'SecureString', value: 'stored-before' } },
  budgets: {
    'Portfolio-monthly-cost': {
      limit: '10',
      actual: '1.20',
      forecast: '2.40',
      alerts: ['ACTUAL>80%'],
      subscribers: ['jane@owner-mail.dev'],
    },
  },
};
const REGISTRAR_NS = ['ns1.registrar.example', 'ns2.registrar.example'];

let harness: SetupHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});
const pending = (stdout: string) => stdout.slice(stdout.indexOf('Waiting on'));

describe('npm run setup against the fake AWS: Route 53, the SES review, the alarm mail', () => {
  it('Route 53 from an empty account: one zone (also after an interruption), DKIM CNAMEs in it, NS for the registrar; delegated → exit 0 and the doctor agrees', async () => {
    harness = await startSetupHarness(
      { ...READY_CONFIG, recaptchaSiteKey: null, senderIdentity: 'jane.dev' },
      { registrar: { 'jane.dev': REGISTRAR_NS } },
    );
    const { aws, run, hook } = harness;
    const args = ['--yes', '--expect-account', ACCOUNT, '--domain', 'www.jane.dev', '--hosted-zone-name', 'jane.dev'];
    const env = { RECAPTCHA_SITE_KEY: SITE_KEY, RECAPTCHA_SECRET: 'route53-test-secret-42' };
    const before = readFileSync(harness.cdkJson, 'utf8');

    const first = await run('setup', args, env);
    expect(first.code).toBe(2);
    expect(aws.state.zones.map((z) => [z.name, z.private])).toEqual([['jane.dev', false]]);
    const [zone] = aws.state.zones;
    const tokens = aws.state.dkim['jane.dev']!.tokens;
    expect(zone!.records).toEqual(Object.fromEntries(tokens.map((t) => [`${t}._domainkey.jane.dev CNAME`, [`${t}.dkim.amazonses.com`]])));
    expect(harness.portfolio().domain).toEqual({ domainName: 'www.jane.dev', hostedZoneId: zone!.id, hostedZoneName: 'jane.dev' });
    expect(pending(first.stdout)).toContain(
      `- Name servers: you: at your registrar, set the name servers of jane.dev to ${[...zone!.nameServers].sort().join(', ')}`,
    );
    expect(pending(first.stdout)).toContain('- SES sender: AWS: SES checks them once they are there (up to 72 h)');
    expect(first.stdout).toContain(`jane.dev delegates to ${REGISTRAR_NS.join(', ')} (public DNS)`);

    // Ctrl-C after the zone was made but before cdk.json was written: the re-run finds it by name.
    writeFileSync(harness.cdkJson, before);
    const resumed = await run('setup', args, env);
    expect(resumed.code).toBe(2);
    expect(aws.state.zones).toHaveLength(1);
    expect(aws.state.writes.filter((w) => w.startsWith('CreateHostedZone'))).toEqual(['CreateHostedZone jane.dev']);
    // The DKIM records are there already: read, not written again.
    expect(aws.state.writes.filter((w) => w.startsWith('ChangeResourceRecordSets'))).toHaveLength(3);
    expect(harness.portfolio().domain).toEqual({ domainName: 'www.jane.dev', hostedZoneId: zone!.id, hostedZoneName: 'jane.dev' });

    await hook('click', 'identity=jane@owner-mail.dev');
    // SES cannot see the CNAMEs while the registrar still points elsewhere.
    await hook('dkim-scan');
    expect(aws.state.dkim['jane.dev']!.status).toBe('PENDING');
    await hook('delegate', 'domain=jane.dev');
    await hook('dkim-scan');
    const writes = [...aws.state.writes];
    const done = await run('setup', ['--expect-account', ACCOUNT]);
    expect(done.stdout).toContain("✓ Name servers: jane.dev delegates to the zone's name servers (public DNS)");
    expect(done.stdout.trim().split('\n').at(-1)).toBe('Ready to deploy: npm run deploy');
    expect(done.code).toBe(0);
    expect(aws.state.writes).toEqual(writes);

    const doctor = await run('doctor', []);
    expect(doctor.stdout).toMatch(/✓ Hosted zone +\S+ is jane\.dev \(public\)/);
    expect(doctor.stdout).toMatch(/✓ SES sender +jane\.dev verified \(domain, DKIM SUCCESS\)/);
    expect(doctor.stdout).toContain('All 12 checks passed.');
    expect(doctor.code).toBe(0);
  }, 120_000);

  it('production access: requested once (exit 2, waiting on AWS); not again while PENDING; DENIED shows the case id; GRANTED → production', async () => {
    harness = await startSetupHarness(READY_CONFIG, READY_ACCOUNT);
    const { aws, run, hook } = harness;
    const args = ['--yes', '--expect-account', ACCOUNT, '--request-production-access', '--website-url', 'https://www.jane.dev'];

    const first = await run('setup', args);
    expect(first.code).toBe(2);
    expect(aws.state.writes).toEqual(['PutAccountDetails TRANSACTIONAL https://www.jane.dev']);
    expect(pending(first.stdout)).toContain('- SES sending: AWS: the review');
    const caseId = aws.state.review!.caseId;

    const again = await run('setup', args);
    expect(again.code).toBe(2);
    expect(again.stdout).toContain(`production access review PENDING (case ${caseId}), not asked again`);
    expect(aws.state.writes).toEqual(['PutAccountDetails TRANSACTIONAL https://www.jane.dev']);

    // Denied: the sandbox still mails the verified owner, so the site is ready; the case id is shown and nothing is resubmitted.
    await hook('review', 'status=DENIED');
    const denied = await run('setup', args);
    expect(denied.stdout).toContain(`✓ SES sending: sandbox; production access DENIED (case ${caseId})`);
    expect(denied.code).toBe(0);
    expect(aws.state.writes).toHaveLength(1);

    await hook('review', 'status=GRANTED');
    const granted = await run('setup', ['--expect-account', ACCOUNT]);
    expect(granted.stdout).toContain('✓ SES sending: production access');
    expect(granted.code).toBe(0);
    expect(aws.state.writes).toHaveLength(1);
  }, 120_000);

  it('alarm mail after a deploy: SNS dropped the unconfirmed owner → subscribed again (exit 2) → confirmed → a re-run changes nothing', async () => {
    harness = await startSetupHarness(READY_CONFIG, READY_ACCOUNT);
    const { aws, run, hook } = harness;
    // Two other confirmed subscribers first: the owner's subscription is on a later page of the list.
    await hook('deploy', 'stack=Portfolio&owner=jane@owner-mail.dev&others=ops@jane.dev,oncall@jane.dev');
    await hook('sns-expire');
    const [topic] = Object.keys(aws.state.topics);
    expect(aws.state.topics[topic!]!.map((s) => s.endpoint)).toEqual(['ops@jane.dev', 'oncall@jane.dev']);

    const first = await run('setup', ['--yes', '--expect-account', ACCOUNT]);
    expect(first.code).toBe(2);
    expect(aws.state.writes).toEqual([`Subscribe ${topic} email jane@owner-mail.dev`]);
    expect(pending(first.stdout)).toContain(
      '- Alarm mail: you: confirm the "AWS Notification - Subscription Confirmation" mail to jane@owner-mail.dev (SNS drops it after 48 h)',
    );

    // Not confirmed yet: waits, without subscribing twice (and without --yes: nothing to ask).
    const waiting = await run('setup', ['--expect-account', ACCOUNT]);
    expect(waiting.code).toBe(2);
    expect(waiting.stdout).toContain('jane@owner-mail.dev: subscription not confirmed yet');
    expect(aws.state.writes).toHaveLength(1);

    await hook('sns-confirm', 'endpoint=jane@owner-mail.dev');
    const done = await run('setup', ['--expect-account', ACCOUNT]);
    expect(done.stdout).toContain('✓ Alarm mail: jane@owner-mail.dev receives the alarms');
    expect(done.code).toBe(0);
    expect(aws.state.writes).toHaveLength(1);
  }, 120_000);

  it('DKIM FAILED after 72 h: setup --yes deletes and re-creates the identity, writes the new records into the zone; SES sees them → exit 0', async () => {
    const nameServers = ['ns-1.awsdns-01.org', 'ns-2.awsdns-02.net'];
    const domain = { domainName: 'www.jane.dev', hostedZoneId: 'Z0001DKIM', hostedZoneName: 'jane.dev' };
    const old = ['old1', 'old2', 'old3'];
    harness = await startSetupHarness(
      { ...READY_CONFIG, senderIdentity: 'jane.dev', domain },
      {
        ...READY_ACCOUNT,
        identities: { ...READY_ACCOUNT.identities, 'jane.dev': 'PENDING' },
        dkim: { 'jane.dev': { tokens: old, status: 'PENDING' } },
        zones: [{ id: 'Z0001DKIM', name: 'jane.dev', private: false, callerReference: 'r', nameServers, records: {} }],
        registrations: { 'jane.dev': nameServers },
      },
    );
    const { aws, run, hook } = harness;
    // The records were never published; SES gave up.
    await hook('dkim-fail', 'identity=jane.dev');
    const restarted = await run('setup', ['--yes', '--expect-account', ACCOUNT]);
    expect(restarted.stdout).toContain(
      'jane.dev: SES did not find its DKIM records within 72 h (FAILED) and does not look again by itself',
    );
    const tokens = aws.state.dkim['jane.dev']!.tokens;
    expect(tokens.some((t) => old.includes(t))).toBe(false);
    expect(aws.state.writes).toEqual([
      'DeleteEmailIdentity jane.dev',
      'CreateEmailIdentity jane.dev',
      ...tokens.map((t) => `ChangeResourceRecordSets jane.dev UPSERT ${t}._domainkey.jane.dev CNAME`),
    ]);
    expect(aws.state.zones[0]!.records).toEqual(
      Object.fromEntries(tokens.map((t) => [`${t}._domainkey.jane.dev CNAME`, [`${t}.dkim.amazonses.com`]])),
    );
    expect(pending(restarted.stdout)).toContain('- SES sender: AWS: SES checks them (up to 72 h)');
    expect(restarted.code).toBe(2);

    await hook('dkim-scan');
    const done = await run('setup', ['--expect-account', ACCOUNT]);
    expect(done.stdout.trim().split('\n').at(-1)).toBe('Ready to deploy: npm run deploy');
    expect(done.code).toBe(0);
    expect(aws.state.writes).toHaveLength(5);
    const doctor = await run('doctor', []);
    expect(doctor.stdout).toMatch(/✓ SES sender +jane\.dev verified \(domain, DKIM SUCCESS\)/);
    expect(doctor.code).toBe(0);
  }, 60_000);

  it('a finished account (Route 53 domain, DKIM, production access, confirmed alarms): a run asks nothing and writes nothing', async () => {
    const nameServers = ['ns-1.awsdns-01.org', 'ns-2.awsdns-02.net'];
    const domain = { domainName: 'www.jane.dev', hostedZoneId: 'Z0001FINISHED', hostedZoneName: 'jane.dev' };
    harness = await startSetupHarness(
      { ...READY_CONFIG, senderIdentity: 'jane.dev', domain },
      {
        ...READY_ACCOUNT,
        identities: { 'jane.dev': 'SUCCESS' },
        dkim: { 'jane.dev': { tokens: ['t1', 't2', 't3'], status: 'SUCCESS' } },
        production: true,
        review: { status: 'GRANTED', caseId: 'case-0001', websiteUrl: 'https://www.jane.dev' },
        zones: [{ id: 'Z0001FINISHED', name: 'jane.dev', private: false, callerReference: 'r', nameServers, records: {} }],
        registrations: { 'jane.dev': nameServers },
        stacks: {
          Portfolio: {
            outputs: { DistributionDomainName: 'd111111abcdef8.cloudfront.net' },
            resources: [
              { logicalId: 'AlarmTopic', type: 'AWS::SNS::Topic', physicalId: 'arn:aws:sns:us-east-1:123456789012:Portfolio-AlarmTopic' },
            ],
          },
        },
        topics: {
          'arn:aws:sns:us-east-1:123456789012:Portfolio-AlarmTopic': [
            {
              protocol: 'email',
              endpoint: 'jane@owner-mail.dev',
              confirmed: true,
              arn: 'arn:aws:sns:us-east-1:123456789012:Portfolio-AlarmTopic:1',
            },
          ],
        },
      },
    );
    const before = readFileSync(harness.cdkJson, 'utf8');
    // No --yes and no terminal: any question or change would stop the run with exit 1.
    const again = await harness.run('setup', ['--expect-account', ACCOUNT, '--request-production-access']);
    expect(again.stdout).toContain("✓ Name servers: jane.dev delegates to the zone's name servers (Route 53 Domains)");
    expect(again.stdout.trim().split('\n').at(-1)).toBe('Ready to deploy: npm run deploy');
    expect(again.code).toBe(0);
    expect(harness.aws.state.writes).toEqual([]);
    expect(readFileSync(harness.cdkJson, 'utf8')).toBe(before);
  }, 60_000);
});
