/**
 * npm run setup in-process against the fake AWS of tools/fake-aws.ts (its own clients, pointed there by
 * AWS_ENDPOINT_URL as the spawned tests' are) and a scripted prompter: an empty account reaches "ready
 * to deploy" with only the human waits left to the fake's state and hooks; a second run asks nothing and
 * changes nothing; each bad input gives its one line and exit code.
 */
import dns from 'node:dns';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { PAGE_SIZE, startFakeAws, type FakeAws, type FakeAwsState, type FakeZone } from '../../../tools/fake-aws';
import { RECAPTCHA_TEST_SITE_KEY } from '../../config/portfolio-config';
import { boundaryPolicyDocument, executionPolicyDocument } from '../../lib/deploy-fence';
import { awsClient } from '../kit/aws';
import type { SetupClients } from './context';
import { CANCEL, scriptedPrompter, type Script } from './prompter';
import { awsSetupClients, runSetup } from './run';
import { pinnedBootstrapVersion } from './steps/bootstrap';
import { scratchDir } from '../../../tools/scratch';

const ACCOUNT = '123456789012';

const SITE_KEY = 'a-real-looking-site-key-0123456789';
const SECRET = 'the-real-secret-never-shown-0123';
/** The execution policy setup gives the bootstrap's CloudFormation role (infra/scripts/setup/execution-policy.ts). */
const POLICY = 'arn:aws:iam::123456789012:policy/Portfolio-cdk-execution';
/** The boundary CloudFormation's role and every role a deploy makes carry. */
const BOUNDARY = 'arn:aws:iam::123456789012:policy/Portfolio-cdk-boundary';
const BOOTSTRAP = (region: string) => [
  'bootstrap',
  `aws://${ACCOUNT}/${region}`,
  '--cloudformation-execution-policies',
  POLICY,
  '--custom-permissions-boundary',
  'Portfolio-cdk-boundary',
];
/** A bootstrap as setup leaves it: the pinned version, the scoped execution policy. */
/** What the execution policy names for this cdk.json (the stack, the live secret). */
const SCOPE = {
  partition: 'aws',
  account: ACCOUNT,
  region: 'us-east-1',
  portfolioStackName: 'Portfolio',
  liveSecretParameter: '/portfolio/recaptcha-secret',
};
const bootstrapped = (): Toolkit => ({ version: pinnedBootstrapVersion(), policies: POLICY, boundary: 'Portfolio-cdk-boundary' });
const CDK_JSON = `{
  "app": "node --import tsx infra/bin/portfolio.ts",
  "context": {
    "portfolio": {
      "stackName": "Portfolio",
      "region": "us-east-1",
      "ownerEmail": "owner@example.com",
      "senderEmail": "portfolio@example.com",
      "recaptchaSecretParameter": "/portfolio/recaptcha-secret",
      "recaptchaSiteKey": null,
      "cloudFrontPlan": "pro",
      "sesProductionAccess": false,
      "domain": null
    },
    "@aws-cdk/core:defaultCrossStackReferences": "strong"
  }
}
`;

let dir: string;
let file: string;
let aws: FakeAws;
/** The fake account, changed between runs as the people and services setup waits on would. */
let account: FakeAwsState;
/** Regions whose SES answers; elsewhere SES has no endpoint (email.REGION.amazonaws.com does not resolve). */
let sesRegions: Set<string>;
let cdkCalls: string[][];
let clock: number;

/** A CDKToolkit stack: its version and execution policies, and a status other than CREATE_COMPLETE. */
interface Toolkit {
  version: number;
  policies?: string;
  boundary?: string;
  status?: string;
  since?: string;
}
function toolkit(region: string, t: Toolkit) {
  account.toolkits[region] = t.version;
  account.toolkitPolicies[region] = t.policies ?? '';
  account.toolkitBoundaries[region] = t.boundary ?? '';
  if (t.status) account.toolkitStatus[region] = { status: t.status, ...(t.since ? { since: t.since } : {}) };
  else delete account.toolkitStatus[region];
}
/** A hosted zone as Route 53 holds it. */
const zone = (z: Pick<FakeZone, 'id' | 'name' | 'nameServers'> & Partial<FakeZone>): FakeZone => ({
  private: false,
  callerReference: `ref-${z.id}`,
  records: {},
  ...z,
});
/** A domain identity's DKIM CNAMEs as the zone holds them ("name TYPE" → values). */
const dkimRecords = (tokens: string[], signing = 'dkim.amazonses.com') =>
  Object.fromEntries(tokens.map((t) => [`${t}._domainkey.jane.dev CNAME`, [`${t}.${signing}`]]));
/** The writes of those records, as the fake logs them. */
const dkimWrites = (tokens: string[]) => tokens.map((t) => `ChangeResourceRecordSets jane.dev UPSERT ${t}._domainkey.jane.dev CNAME`);
const tokensOf = (domain: string) => account.dkim[domain]!.tokens;
/** POST /__hooks/NAME?QUERY: what a person, a registrar or AWS's own scan does. */
async function hook(name: string, query = '') {
  const res = await fetch(`${aws.url}/__hooks/${name}?${query}`, { method: 'POST' });
  if (!res.ok) throw new Error(`hook ${name}: ${await res.text()}`);
}
/** A deploy of the site stack made its alarm topic; `owner` subscribed, not yet confirmed. */
const deployed = (query = '') => hook('deploy', `stack=Portfolio&region=us-east-1&${query}`);

/** The clients setup builds itself (reaching the fake through AWS_ENDPOINT_URL), except SES where the region has none. */
function clients(region: string): SetupClients {
  const own = awsSetupClients(region);
  // A name under .invalid (RFC 6761) never resolves; the lookup below answers it here, not a DNS server.
  return sesRegions.has(region) ? own : { ...own, sesv2: awsClient(SESv2Client, { region, endpoint: `http://email.${region}.invalid` }) };
}
const systemLookup = dns.lookup;
beforeAll(() => {
  dns.lookup = ((host: string, ...rest: unknown[]) => {
    const callback = rest.at(-1) as (error: Error) => void;
    if (host.endsWith('.invalid'))
      return process.nextTick(() =>
        callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host })),
      );
    return (systemLookup as (...args: unknown[]) => void)(host, ...rest);
  }) as typeof dns.lookup;
});
afterAll(() => {
  dns.lookup = systemLookup;
});

const EXISTING_BUDGET = { limit: '10.0', actual: '1.2', forecast: '2.5', alerts: ['ACTUAL>80%'], subscribers: ['jane@owner-mail.dev'] };

beforeEach(async () => {
  dir = scratchDir('setup-test-');
  file = path.join(dir, 'cdk.json');
  writeFileSync(file, CDK_JSON);
  // The account already has its cost budget: these tests are about the other steps (budget.test.ts has its own).
  aws = await startFakeAws({ clock: '2026-11-26T12:00:00Z', budgets: { 'Portfolio-monthly-cost': EXISTING_BUDGET } });
  account = aws.state;
  sesRegions = new Set(['us-east-1', 'eu-west-1']);
  vi.stubEnv('PORTFOLIO_CDK_JSON', file);
  vi.stubEnv('AWS_ENDPOINT_URL', aws.url);
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAFAKEFAKEFAKEFAKE');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'fake-secret-key');
  vi.stubEnv('AWS_SESSION_TOKEN', '');
  vi.stubEnv('AWS_PROFILE', '');
  vi.stubEnv('AWS_CONFIG_FILE', path.join(dir, 'no-aws-config'));
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', path.join(dir, 'no-aws-credentials'));
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
  vi.stubEnv('PORTFOLIO_DNS_SERVER', aws.dns);
  cdkCalls = [];
  clock = Date.parse('2026-11-26T12:00:00Z');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await aws.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface RunOptions {
  argv?: string[];
  env?: Record<string, string>;
  tty?: boolean;
  script?: Script;
  stdin?: string;
  /** What happens in the world while setup sleeps between polls. */
  onSleep?: () => void;
}
async function setup(options: RunOptions = {}) {
  const lines: string[] = [];
  const prompter = scriptedPrompter(options.script ?? {});
  const code = await runSetup({
    argv: options.argv ?? [],
    env: options.env ?? {},
    tty: options.tty ?? true,
    deps: {
      prompter,
      clients,
      print: (line) => lines.push(line),
      out: (text) => lines.push(text),
      runCdk: (args) => {
        cdkCalls.push(args);
        const [, target] = args;
        const region = /^aws:\/\/\d{12}\/(.+)$/.exec(target ?? '')?.[1];
        const policies = args[args.indexOf('--cloudformation-execution-policies') + 1];
        const boundary = args[args.indexOf('--custom-permissions-boundary') + 1];
        if (args[0] === 'bootstrap' && region) toolkit(region, { version: pinnedBootstrapVersion(), policies, boundary });
        return 0;
      },
      readStdin: async () => options.stdin ?? '',
      sleep: async (ms) => {
        clock += ms;
        options.onSleep?.();
      },
      now: () => clock,
    },
  });
  const text = lines.join('\n');
  return { code, text, asked: prompter.asked, last: lines.at(-1) ?? '' };
}

/** Everything done already: what a second run finds. */
function readyAccount() {
  writeFileSync(
    file,
    CDK_JSON.replace('owner@example.com', 'jane@owner-mail.dev')
      .replace('portfolio@example.com', 'hello@jane.dev')
      .replace('"recaptchaSiteKey": null', `"recaptchaSiteKey": "${SITE_KEY}"`),
  );
  toolkit('us-east-1', bootstrapped());
  account.policies[POLICY] = [
    { id: 'v1', document: JSON.stringify(executionPolicyDocument(SCOPE)), isDefault: true, created: new Date(0).toISOString() },
  ];
  account.policies[BOUNDARY] = [
    { id: 'v1', document: JSON.stringify(boundaryPolicyDocument(SCOPE)), isDefault: true, created: new Date(0).toISOString() },
  ];
  account.identities['hello@jane.dev'] = 'SUCCESS';
  account.identities['jane@owner-mail.dev'] = 'SUCCESS';
  account.parameters['/portfolio/recaptcha-secret'] = { type: 'SecureString', value: SECRET };
}

const FIRST_RUN: Script = {
  'owner-email': 'jane@owner-mail.dev',
  'sender-email': 'hello@jane.dev',
  account: true,
  'write-cdk-json': true,
  'bootstrap-us-east-1': true,
  'create-identity-hello@jane.dev': true,
  'create-identity-jane@owner-mail.dev': true,
  'recaptcha-site-key': SITE_KEY,
  'recaptcha-secret': SECRET,
  'put-recaptcha-secret': true,
};

describe('npm run setup, interactive', () => {
  it('takes an empty account to "waiting on the mail clicks", then to ready after them; a third run asks nothing and changes nothing', async () => {
    const first = await setup({ script: FIRST_RUN });
    expect(first.code).toBe(2);
    expect(cdkCalls).toEqual([BOOTSTRAP('us-east-1')]);
    expect(account.writes).toEqual([
      'CreatePolicy Portfolio-cdk-boundary',
      'CreatePolicy Portfolio-cdk-execution',
      'CreateEmailIdentity hello@jane.dev',
      'CreateEmailIdentity jane@owner-mail.dev',
      'PutParameter /portfolio/recaptcha-secret SecureString',
    ]);
    expect(account.parameters['/portfolio/recaptcha-secret']?.value).toBe(SECRET);
    // The answers are in cdk.json, formatted as before; the secret is nowhere but SSM.
    const written = readFileSync(file, 'utf8');
    expect(written).toBe(
      CDK_JSON.replace('owner@example.com', 'jane@owner-mail.dev')
        .replace('portfolio@example.com', 'hello@jane.dev')
        .replace('"recaptchaSiteKey": null', `"recaptchaSiteKey": "${SITE_KEY}"`),
    );
    expect(first.text).not.toContain(SECRET);
    expect(first.text).toContain('- "ownerEmail": "owner@example.com"\n  + "ownerEmail": "jane@owner-mail.dev"');
    expect(first.text).toContain('cost:');
    expect(first.text).toMatch(/SES sender: you: click the link in the mail to hello@jane\.dev within 24 h/);
    expect(first.text).toMatch(/SES owner: you: click the link in the mail to jane@owner-mail\.dev within 24 h/);

    account.identities['hello@jane.dev'] = 'SUCCESS';
    account.identities['jane@owner-mail.dev'] = 'SUCCESS';
    const second = await setup();
    expect(second.code).toBe(0);
    expect(second.asked).toEqual([]);
    expect(second.text).toContain('All 10 checks passed.');
    expect(second.last).toBe('Ready to deploy: npm run deploy');

    const writes = account.writes.length;
    const again = await setup();
    expect(again.code).toBe(0);
    expect(again.asked).toEqual([]);
    expect(account.writes.length).toBe(writes);
    expect(cdkCalls.length).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(written);
  });

  it('asks the account once, before the first change, and stops when it is the wrong one', async () => {
    const run = await setup({ script: { 'owner-email': 'jane@owner-mail.dev', 'sender-email': 'hello@jane.dev', account: false } });
    expect(run.code).toBe(1);
    expect(run.last).toBe(
      `✗ account ${ACCOUNT}: not confirmed; switch credentials (e.g. export AWS_PROFILE=NAME) and run npm run setup again`,
    );
    expect(readFileSync(file, 'utf8')).toBe(CDK_JSON);
  });

  it('Ctrl-C at a question writes nothing of that step; the next run continues from there', async () => {
    const cut = await setup({ script: { ...FIRST_RUN, 'recaptcha-secret': CANCEL } });
    expect(cut.code).toBe(1);
    expect(cut.last).toMatch(/cancelled at "recaptcha-secret": nothing of this step was written; run npm run setup again/);
    expect(account.parameters).toEqual({});
    // Done before the cut stays done; the resumed run asks only what is left.
    const resumed = await setup({ script: { account: true, 'recaptcha-secret': SECRET, 'put-recaptcha-secret': true } });
    expect(resumed.asked).toEqual(['recaptcha-secret', 'account', 'put-recaptcha-secret']);
    expect(resumed.code).toBe(2);
    expect(cdkCalls.length).toBe(1);
  });

  it('offers SES regions when the configured one has no SES, and writes the choice', async () => {
    readyAccount();
    writeFileSync(file, readFileSync(file, 'utf8').replace('"region": "us-east-1"', '"region": "ap-east-9"'));
    toolkit('eu-west-1', bootstrapped());
    const run = await setup({ script: { region: 'eu-west-1', account: true, 'write-cdk-json': true } });
    expect(run.text).toContain('SES is not offered in ap-east-9');
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.region).toBe('eu-west-1');
    expect(run.code).toBe(0);
  });

  it('updates a bootstrap stack older than the pinned template only on a yes', async () => {
    readyAccount();
    toolkit('us-east-1', { status: 'UPDATE_COMPLETE', version: 14, policies: POLICY, boundary: 'Portfolio-cdk-boundary' });
    const declined = await setup({ script: { account: true, 'bootstrap-update-us-east-1': false } });
    expect(declined.code).toBe(0);
    expect(cdkCalls).toEqual([]);
    const accepted = await setup({ script: { account: true, 'bootstrap-update-us-east-1': true } });
    expect(accepted.code).toBe(0);
    expect(cdkCalls).toEqual([BOOTSTRAP('us-east-1')]);
  });

  it('waits on AWS while the CDKToolkit stack is *_IN_PROGRESS (exit 2), touching nothing', async () => {
    readyAccount();
    toolkit('us-east-1', { status: 'UPDATE_IN_PROGRESS', version: 30 });
    const run = await setup();
    expect(run.code).toBe(2);
    expect(run.asked).toEqual([]);
    expect(run.text).toContain('- CDK bootstrap us-east-1: AWS: CloudFormation is still working on it');
    expect(cdkCalls).toEqual([]);
  });

  it('deletes a ROLLBACK_COMPLETE CDKToolkit and the staging bucket it retained only after an explicit yes, then bootstraps', async () => {
    readyAccount();
    toolkit('us-east-1', { status: 'ROLLBACK_COMPLETE', version: 33 });
    // The template retains its staging bucket, whose fixed name the next bootstrap needs (aws/aws-cdk#24143).
    account.buckets[`cdk-hnb659fds-assets-${ACCOUNT}-us-east-1`] = ['asset-0.zip', 'asset-1.zip'];
    const run = await setup({ script: { account: true, 'delete-cdktoolkit-us-east-1': true } });
    expect(account.writes).toEqual([
      'DeleteStack CDKToolkit us-east-1',
      `DeleteObjects cdk-hnb659fds-assets-${ACCOUNT}-us-east-1`,
      `DeleteBucket cdk-hnb659fds-assets-${ACCOUNT}-us-east-1`,
    ]);
    expect(cdkCalls).toEqual([BOOTSTRAP('us-east-1')]);
    expect(run.code).toBe(0);
  });

  it('brings the execution policy up to date when cdk.json names another live secret, without bootstrapping again', async () => {
    readyAccount();
    writeFileSync(file, readFileSync(file, 'utf8').replace('"/portfolio/recaptcha-secret"', '"/portfolio/recaptcha-secret-2"'));
    account.parameters['/portfolio/recaptcha-secret-2'] = { type: 'SecureString', value: SECRET };
    const run = await setup({ script: { account: true, 'execution-policy-us-east-1': true } });
    expect(run.text).toContain("bring up to date Portfolio-cdk-execution, CloudFormation's execution policy");
    expect(account.writes).toEqual(['CreatePolicyVersion Portfolio-cdk-execution']);
    expect(cdkCalls).toEqual([]);
    const current = account.policies[POLICY]!.find((v) => v.isDefault)!;
    expect(current.document).toContain('parameter/portfolio/recaptcha-secret-2');
    expect(run.code).toBe(0);
  });

  it("puts the boundary on an earlier bootstrap's CloudFormation role on a yes, making the boundary first; then asks nothing", async () => {
    readyAccount();
    delete account.policies[BOUNDARY];
    toolkit('us-east-1', { version: pinnedBootstrapVersion(), policies: POLICY });
    const run = await setup({ script: { account: true, 'bootstrap-update-us-east-1': true } });
    expect(run.text).toContain("the boundary Portfolio-cdk-boundary on CloudFormation's role (no role a deploy makes escapes it)");
    expect(run.code).toBe(0);
    expect(account.writes).toEqual(['CreatePolicy Portfolio-cdk-boundary']);
    expect(cdkCalls).toEqual([BOOTSTRAP('us-east-1')]);
    expect(account.toolkitBoundaries['us-east-1']).toBe('Portfolio-cdk-boundary');
    expect(JSON.parse(account.policies[BOUNDARY]![0]!.document).Statement.map((s: { Sid: string }) => s.Sid)).toContain(
      'RolesOnlyWithinTheBoundary',
    );
    cdkCalls = [];
    account.writes.length = 0;
    const again = await setup();
    expect([again.code, account.writes, cdkCalls, again.asked]).toEqual([0, [], [], []]);
  });

  it('gives an AdministratorAccess bootstrap the scoped execution policy on a yes, and brings a stale policy up to date', async () => {
    readyAccount();
    toolkit('us-east-1', { status: 'CREATE_COMPLETE', version: pinnedBootstrapVersion() });
    const declined = await setup({ script: { account: true, 'bootstrap-update-us-east-1': false } });
    expect(declined.text).toContain('its CloudFormation execution role from AdministratorAccess to Portfolio-cdk-execution');
    expect(cdkCalls).toEqual([]);
    // Five versions already (IAM's most), the default one stale: the oldest other goes, a new default comes.
    account.policies[POLICY] = [1, 2, 3, 4, 5].map((n) => ({
      id: `v${n}`,
      document: '{"Statement":[]}',
      isDefault: n === 5,
      created: new Date(2026, 0, n).toISOString(),
    }));
    const accepted = await setup({ script: { account: true, 'bootstrap-update-us-east-1': true } });
    expect(accepted.code).toBe(0);
    expect(account.writes).toEqual(['DeletePolicyVersion v1', 'CreatePolicyVersion Portfolio-cdk-execution']);
    expect(cdkCalls).toEqual([BOOTSTRAP('us-east-1')]);
    const current = account.policies[POLICY]!.find((v) => v.isDefault)!;
    expect(JSON.parse(current.document).Statement.map((s: { Sid: string }) => s.Sid)).toContain('NoTableItems');
    cdkCalls = [];
    account.writes.length = 0;
    const again = await setup();
    expect([again.code, account.writes, cdkCalls, again.asked]).toEqual([0, [], [], []]);
  });
});

describe('npm run setup, a domain', () => {
  it('finds the zone by suffix, writes the DKIM records of a domain sender into it, and updates Route 53 Domains name servers', async () => {
    readyAccount();
    writeFileSync(file, readFileSync(file, 'utf8').replace('"domain": null', '"senderIdentity": "jane.dev",\n      "domain": null'));
    account.zones.push(
      zone({ id: 'Z0123456789ABCDEFGHIJ', name: 'jane.dev', records: {}, nameServers: ['ns-1.awsdns-01.org', 'ns-2.awsdns-02.net'] }),
    );
    account.registrations['jane.dev'] = ['ns1.registrar.example'];
    toolkit('eu-west-1', bootstrapped());
    const run = await setup({
      argv: ['--domain', 'www.jane.dev'],
      script: {
        account: true,
        'write-cdk-json': true,
        'create-identity-jane.dev': true,
        'dkim-records-jane.dev': true,
        'update-name-servers': true,
      },
    });
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.domain).toEqual({
      domainName: 'www.jane.dev',
      hostedZoneId: 'Z0123456789ABCDEFGHIJ',
      hostedZoneName: 'jane.dev',
    });
    expect(tokensOf('jane.dev')).toHaveLength(3);
    expect(account.zones[0]!.records).toEqual(dkimRecords(tokensOf('jane.dev')));
    expect(account.registrations['jane.dev']).toEqual(['ns-1.awsdns-01.org', 'ns-2.awsdns-02.net']);
    expect(run.code).toBe(2);
    expect(run.text).toMatch(/AWS: SES checks them \(up to 72 h\)/);
    await hook('dkim-scan');
    const after = await setup();
    expect(after.asked).toEqual([]);
    expect(after.code).toBe(0);
  });

  it('points the DKIM records at the DKIM domain SES gives the identity in its region (af-south-1 signs from its own)', async () => {
    readyAccount();
    sesRegions.add('af-south-1');
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('"region": "us-east-1"', '"region": "af-south-1"')
        .replace('"domain": null', '"senderIdentity": "jane.dev",\n      "domain": null'),
    );
    account.zones.push(
      zone({ id: 'Z0123456789ABCDEFGHIJ', name: 'jane.dev', records: {}, nameServers: ['ns-1.awsdns-01.org', 'ns-2.awsdns-02.net'] }),
    );
    toolkit('af-south-1', bootstrapped());
    const run = await setup({ script: { account: true, 'create-identity-jane.dev': true, 'dkim-records-jane.dev': true } });
    expect(tokensOf('jane.dev')).toHaveLength(3);
    expect(account.zones[0]!.records).toEqual(dkimRecords(tokensOf('jane.dev'), 'dkim.af-south-1.amazonses.com'));
    expect(run.code).toBe(2);
  });

  it('creates a missing zone once (looked up by name again before creating) and prints the name servers for another registrar', async () => {
    readyAccount();
    const run = await setup({
      argv: ['--domain', 'www.jane.dev'],
      script: { account: true, 'hosted-zone-name': 'jane.dev', 'create-hosted-zone': true, 'write-cdk-json': true },
    });
    expect(account.writes).toEqual(['CreateHostedZone jane.dev']);
    expect(run.code).toBe(2);
    expect(account.zones.map((z) => z.name)).toEqual(['jane.dev']);
    expect(run.text).toContain(
      `you: at your registrar, set the name servers of jane.dev to ${[...account.zones[0]!.nameServers].sort().join(', ')}`,
    );
    const again = await setup({ argv: ['--domain', 'www.jane.dev'] });
    expect(again.asked).toEqual([]);
    expect(account.writes).toEqual(['CreateHostedZone jane.dev']);
  });

  it('a domain sender whose zone this run creates: its DKIM records go into the new zone in the same run, not to "your DNS host"', async () => {
    readyAccount();
    writeFileSync(file, readFileSync(file, 'utf8').replace('"domain": null', '"senderIdentity": "jane.dev",\n      "domain": null'));
    const run = await setup({ tty: false, argv: ['--yes', '--domain', 'www.jane.dev', '--hosted-zone-name', 'jane.dev'] });
    expect(account.writes).toEqual(['CreateEmailIdentity jane.dev', 'CreateHostedZone jane.dev', ...dkimWrites(tokensOf('jane.dev'))]);
    expect(run.text).not.toContain('publish at your DNS host');
    expect(run.text).toContain('- SES sender: AWS: SES checks them once they are there (up to 72 h)');
    expect(run.code).toBe(2);
  });

  it('DKIM records go into the zone only after a yes, and a re-run while SES looks for them writes nothing', async () => {
    readyAccount();
    const domain = { domainName: 'www.jane.dev', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'jane.dev' };
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"domain": null', `"senderIdentity": "jane.dev",\n      "domain": ${JSON.stringify(domain)}`),
    );
    account.zones.push(zone({ id: 'Z0123456789ABCDEFGHIJ', name: 'jane.dev', records: {}, nameServers: ['ns-1.awsdns-01.org'] }));
    account.registrations['jane.dev'] = ['ns-1.awsdns-01.org'];
    account.identities['jane.dev'] = 'PENDING';
    account.dkim['jane.dev'] = { tokens: ['tok1', 'tok2', 'tok3'], status: 'PENDING' };
    // No terminal, no --yes: the write is a change like any other.
    const refused = await setup({ tty: false });
    expect(refused.code).toBe(1);
    expect(refused.last).toMatch(
      /^✗ write 3 DKIM CNAME records of jane\.dev into the Route 53 zone jane\.dev\?: needs your yes; without a terminal pass --yes/,
    );
    expect(account.writes).toEqual([]);
    const declined = await setup({ script: { account: true, 'dkim-records-jane.dev': false } });
    expect(declined.text).toContain('- SES sender: you: run npm run setup again to write them');
    expect(account.writes).toEqual([]);
    expect((await setup({ script: { account: true, 'dkim-records-jane.dev': true } })).code).toBe(2);
    expect(account.writes).toEqual(dkimWrites(['tok1', 'tok2', 'tok3']));
    // SES has not seen them yet: the next runs ask nothing and write nothing.
    const again = await setup({ tty: false });
    expect(again.code).toBe(2);
    expect(again.asked).toEqual([]);
    expect(account.writes).toHaveLength(3);
  });

  it('a private or foreign zone id in cdk.json: uses the public zone of that name in this account', async () => {
    readyAccount();
    const domain = { domainName: 'www.jane.dev', hostedZoneId: 'ZPRIVATE0000000000001', hostedZoneName: 'jane.dev' };
    writeFileSync(file, readFileSync(file, 'utf8').replace('"domain": null', `"domain": ${JSON.stringify(domain)}`));
    account.zones.push(zone({ id: 'ZPRIVATE0000000000001', name: 'jane.dev', private: true, records: {}, nameServers: [] }));
    account.zones.push(zone({ id: 'ZPUBLIC00000000000001', name: 'jane.dev', records: {}, nameServers: ['ns-1.awsdns-01.org'] }));
    account.registrations['jane.dev'] = ['ns-1.awsdns-01.org'];
    toolkit('eu-west-1', bootstrapped());
    const run = await setup({ tty: false, argv: ['--yes'] });
    expect(run.text).toContain('ZPRIVATE0000000000001 is a private zone');
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.domain.hostedZoneId).toBe('ZPUBLIC00000000000001');
    expect(account.writes).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('refuses a domain name outside the zone the owner names', async () => {
    readyAccount();
    const run = await setup({ argv: ['--domain', 'www.jane.dev', '--hosted-zone-name', 'other.dev', '--yes'] });
    expect(run.code).toBe(1);
    expect(run.last).toBe('✗ --hosted-zone-name other.dev: "www.jane.dev" is not inside the zone "other.dev"');
  });
});

describe('npm run setup, a domain with DNS outside Route 53 (--external-dns)', () => {
  it('requests the certificate once, prints its validation record, waits until ISSUED, then prints the site record', async () => {
    readyAccount();
    const first = await setup({
      argv: ['--domain', 'www.jane.dev', '--external-dns'],
      script: { account: true, 'request-certificate': true, 'write-cdk-json': true },
    });
    const arn = Object.keys(account.certificates)[0]!;
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.domain).toEqual({ domainName: 'www.jane.dev', certificateArn: arn });
    expect(first.code).toBe(2);
    expect(first.text).toContain(
      'you: at your DNS host, publish _v.www.jane.dev. CNAME _v-www-jane-dev.acm-validations.aws. (ACM then issues it)',
    );
    // The us-east-1 certificate stack is not needed: the certificate is imported by ARN.
    expect(cdkCalls).toEqual([]);

    const again = await setup({ argv: ['--domain', 'www.jane.dev', '--external-dns'] });
    expect(again.asked).toEqual([]);
    expect(account.writes).toEqual(['RequestCertificate www.jane.dev']);
    expect(again.code).toBe(2);

    // The owner publishes the validation record at their DNS host; ACM then issues the certificate.
    await hook('dns', `name=${encodeURIComponent('_v.www.jane.dev.')}&value=${encodeURIComponent('_v-www-jane-dev.acm-validations.aws.')}`);
    const issued = await setup();
    expect(issued.code).toBe(0);
    expect(issued.text).toContain('after the first deploy: then publish www.jane.dev CNAME');
    expect(issued.text).toMatch(/✓ Certificate +www\.jane\.dev issued/);
    await deployed('owner=jane@owner-mail.dev');
    await hook('sns-confirm', 'endpoint=jane@owner-mail.dev');
    expect((await setup()).text).toContain('at your DNS host: www.jane.dev CNAME d111111abcdef8.cloudfront.net');
  });

  it("names the request with a token made of the name's letters and digits, at most 32 (a conservative form)", async () => {
    readyAccount();
    const { idempotencyToken } = await import('./steps/domain');
    expect(idempotencyToken('www.jane.dev')).toBe('portfoliowwwjanedev');
    expect(idempotencyToken('a-very-long-subdomain-name.of-a-long-domain.example.dev')).toHaveLength(32);
  });

  it('refuses an apex name without Route 53, with the reason', async () => {
    readyAccount();
    const run = await setup({ tty: false, argv: ['--yes', '--domain', 'jane.dev', '--external-dns'] });
    expect(run.code).toBe(1);
    expect(run.last).toBe(
      '✗ --domain jane.dev --external-dns: a zone apex cannot point at CloudFront from another DNS host (a CNAME cannot sit at the apex); use www.jane.dev, or a Route 53 zone (drop --external-dns)',
    );
    expect(account.writes).toEqual([]);
  });
});

describe('npm run setup, after a deploy: the alarm mail', () => {
  it('subscribes the owner again when SNS dropped the unconfirmed subscription, and waits for the confirmation', async () => {
    readyAccount();
    await deployed();
    const run = await setup({ script: { account: true, 'subscribe-alarms': true } });
    expect(account.writes).toEqual([`Subscribe ${Object.keys(account.topics)[0]} email jane@owner-mail.dev`]);
    expect(run.code).toBe(2);
    expect(run.text).toMatch(/SNS drops it after 48 h/);
    const again = await setup();
    expect(again.asked).toEqual([]);
    expect(account.writes).toEqual([`Subscribe ${Object.keys(account.topics)[0]} email jane@owner-mail.dev`]);
    await hook('sns-confirm', 'endpoint=jane@owner-mail.dev');
    expect((await setup()).code).toBe(0);
  });

  it('follows NextToken: the topic and the confirmed owner on second pages are found, nothing subscribed again', async () => {
    readyAccount();
    // The topic is the stack's fourth resource and the owner the third subscriber: both on a second page.
    await deployed('owner=jane@owner-mail.dev&others=ops@jane.dev,oncall@jane.dev');
    await hook('sns-confirm', 'endpoint=jane@owner-mail.dev');
    expect(PAGE_SIZE).toBeLessThan(3);
    const run = await setup({ tty: false });
    expect(run.text).toContain('✓ Alarm mail: jane@owner-mail.dev receives the alarms');
    expect(run.code).toBe(0);
    expect(account.writes).toEqual([]);
  });
});

describe('npm run setup, production access', () => {
  it('asks AWS only with --request-production-access, pre-filled; never again while the review is PENDING', async () => {
    readyAccount();
    expect((await setup()).text).toContain('optional: npm run setup -- --request-production-access');
    const run = await setup({
      argv: ['--request-production-access', '--website-url', 'https://www.jane.dev'],
      script: { account: true, 'production-access': true },
    });
    expect(run.code).toBe(2);
    expect(account.writes).toEqual(['PutAccountDetails TRANSACTIONAL https://www.jane.dev']);
    const put = account.review!.request!;
    expect(put).toMatchObject({
      MailType: 'TRANSACTIONAL',
      WebsiteURL: 'https://www.jane.dev',
      ProductionAccessEnabled: true,
      ContactLanguage: 'EN',
    });
    expect(String(put.UseCaseDescription).split('\n')).toHaveLength(4);
    // UseCaseDescription is "optional and deprecated" in the SESv2 model: the owner is a contact for the
    // review and has the text to give AWS when asked.
    expect(put.AdditionalContactEmailAddresses).toEqual(['jane@owner-mail.dev']);
    expect(run.text).toContain('if the review asks (mail to jane@owner-mail.dev, or the case in the Support Center), answer with:');
    expect(run.text).toContain('    Recipients: only the site owner');
    const again = await setup({ argv: ['--request-production-access', '--website-url', 'https://www.jane.dev'] });
    expect(again.asked).toEqual([]);
    expect(account.writes).toHaveLength(1);
    expect(again.text).toContain(`production access review PENDING (case ${account.review!.caseId}), not asked again`);
  });

  it('shows a DENIED review with its case id and stays ready (the sandbox mails the verified owner)', async () => {
    readyAccount();
    account.review = { status: 'DENIED', caseId: 'case-9', websiteUrl: 'https://www.jane.dev' };
    const run = await setup({ argv: ['--request-production-access'] });
    expect(run.code).toBe(0);
    expect(run.text).toContain('production access DENIED (case case-9)');
  });
});

describe('npm run setup, without a terminal', () => {
  it('--yes with every answer from flags and the environment reaches the mail clicks without a question', async () => {
    const run = await setup({
      tty: false,
      argv: ['--yes', '--owner-email', 'jane@owner-mail.dev', '--expect-account', ACCOUNT],
      env: { SETUP_SENDER_EMAIL: 'hello@jane.dev', RECAPTCHA_SITE_KEY: SITE_KEY, RECAPTCHA_SECRET: SECRET },
    });
    expect(run.asked).toEqual([]);
    expect(run.code).toBe(2);
    expect(account.parameters['/portfolio/recaptcha-secret']?.value).toBe(SECRET);
    expect(run.text).not.toContain(SECRET);
  });

  it('reads the secret from stdin with --recaptcha-secret-stdin', async () => {
    readyAccount();
    account.parameters = {};
    const run = await setup({ tty: false, argv: ['--yes', '--recaptcha-secret-stdin'], stdin: `${SECRET}\n` });
    expect(run.code).toBe(0);
    expect(account.parameters['/portfolio/recaptcha-secret']).toEqual({ type: 'SecureString', value: SECRET });
  });

  it("--trial keeps Google's test keys and writes no secret: the stack stores the test secret itself", async () => {
    readyAccount();
    writeFileSync(file, readFileSync(file, 'utf8').replace(`"${SITE_KEY}"`, 'null'));
    account.parameters = {};
    const run = await setup({ tty: false, argv: ['--yes', '--trial'] });
    expect(run.code).toBe(0);
    expect(account.parameters).not.toHaveProperty(['/portfolio/recaptcha-secret']);
    expect(run.last).toBe('Ready to deploy: npm run deploy -- --trial');
  });

  it('--json prints the step results alone on stdout', async () => {
    readyAccount();
    const lines: string[] = [];
    const code = await runSetup({
      argv: ['--json'],
      env: {},
      tty: false,
      deps: {
        prompter: scriptedPrompter({}),
        clients,
        print: () => undefined,
        out: (text) => lines.push(text),
        runCdk: () => 1,
        readStdin: async () => '',
        sleep: async () => undefined,
        now: () => clock,
      },
    });
    expect(code).toBe(0);
    expect(lines).toHaveLength(1);
    const json = JSON.parse(lines[0]!) as { exitCode: number; account: string; results: { step: string; outcome: string }[]; next: string };
    expect(json).toMatchObject({ exitCode: 0, account: ACCOUNT, next: 'npm run deploy' });
    expect(json.results.map((r) => r.step)).toContain('reCAPTCHA secret');
  });

  it('--wait polls until the person acts, instead of exiting 2', async () => {
    readyAccount();
    account.identities['hello@jane.dev'] = 'PENDING';
    let polls = 0;
    const started = clock;
    const run = await setup({
      tty: false,
      argv: ['--wait', '5'],
      onSleep: () => {
        if (++polls === 3) account.identities['hello@jane.dev'] = 'SUCCESS';
      },
    });
    expect(polls).toBe(3);
    expect(run.code).toBe(0);
    expect(clock - started).toBe(3 * 30_000);
  });

  it('--wait gives up after its minutes with exit 2', async () => {
    readyAccount();
    account.identities['hello@jane.dev'] = 'PENDING';
    const started = clock;
    const run = await setup({ tty: false, argv: ['--wait', '2'] });
    expect(run.code).toBe(2);
    expect(clock - started).toBeLessThanOrEqual(2 * 60_000);
    expect(clock - started).toBeGreaterThanOrEqual(60_000);
  });
});

/** A domain sender (jane.dev) whose DKIM check FAILED after 72 h; with `zone`, its Route 53 zone is here and holds the old records. */
function failedDkim(options: { zone?: boolean } = {}) {
  readyAccount();
  const domain = options.zone ? { domainName: 'www.jane.dev', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'jane.dev' } : null;
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('"domain": null', `"senderIdentity": "jane.dev",\n      "domain": ${JSON.stringify(domain)}`),
  );
  const old = ['old1', 'old2', 'old3'];
  account.identities['jane.dev'] = 'FAILED';
  account.dkim['jane.dev'] = { tokens: old, status: 'FAILED' };
  if (options.zone) {
    account.zones.push(
      zone({ id: 'Z0123456789ABCDEFGHIJ', name: 'jane.dev', records: dkimRecords(old), nameServers: ['ns-1.awsdns-01.org'] }),
    );
    account.registrations['jane.dev'] = ['ns-1.awsdns-01.org'];
  }
}
/** The writes of the re-created identity's records: new tokens, not the old ones. */
const newRecords = () => {
  expect(tokensOf('jane.dev')).toHaveLength(3);
  expect(tokensOf('jane.dev')).not.toContain('old1');
  return dkimWrites(tokensOf('jane.dev'));
};
const WHY_FAILED =
  'SES sender: jane.dev: SES did not find its DKIM records within 72 h (FAILED) and does not look again by itself; deleting and re-creating the identity restarts the check, with three new DKIM records';

describe('npm run setup, a verification that FAILED (SES does not look again by itself)', () => {
  it('DKIM FAILED: after a yes, deletes and re-creates the domain identity and writes its NEW records into the zone; SES sees them → ready', async () => {
    failedDkim({ zone: true });
    const run = await setup({ script: { account: true, 'restart-dkim-jane.dev': true, 'dkim-records-jane.dev': true } });
    expect(run.text).toContain(WHY_FAILED);
    expect(run.asked).toEqual(['account', 'restart-dkim-jane.dev', 'dkim-records-jane.dev']);
    expect(account.writes).toEqual(['DeleteEmailIdentity jane.dev', 'CreateEmailIdentity jane.dev', ...newRecords()]);
    expect(account.zones[0]!.records).toMatchObject(dkimRecords(tokensOf('jane.dev')));
    expect(run.text).toContain('- SES sender: AWS: SES checks them (up to 72 h)');
    expect(run.code).toBe(2);
    // While SES looks again: nothing asked, nothing written.
    const waiting = await setup({ tty: false });
    expect([waiting.code, waiting.asked, account.writes.length]).toEqual([2, [], 5]);
    await hook('dkim-scan');
    const done = await setup({ tty: false });
    expect(done.code).toBe(0);
    expect(account.writes).toHaveLength(5);
  });

  it('DKIM FAILED: a no deletes nothing and leaves the owner the re-run (exit 2)', async () => {
    failedDkim({ zone: true });
    const run = await setup({ script: { account: true, 'restart-dkim-jane.dev': false } });
    expect(run.text).toContain(WHY_FAILED);
    expect(run.text).toContain('- SES sender: you: run npm run setup again and answer yes to restart it');
    expect(account.writes).toEqual([]);
    expect(account.dkim['jane.dev']!.status).toBe('FAILED');
    expect(run.code).toBe(2);
  });

  it('DKIM FAILED with --yes and the DNS elsewhere: restarts and prints the NEW records to publish', async () => {
    failedDkim();
    const run = await setup({ tty: false, argv: ['--yes'] });
    expect(account.writes).toEqual(['DeleteEmailIdentity jane.dev', 'CreateEmailIdentity jane.dev']);
    expect(tokensOf('jane.dev')).toHaveLength(3);
    expect(run.text).toContain(
      `you: publish at your DNS host ${tokensOf('jane.dev')
        .map((t) => `${t}._domainkey.jane.dev CNAME ${t}.dkim.amazonses.com`)
        .join('; ')}`,
    );
    expect(run.text).not.toContain('old1');
    expect(run.code).toBe(2);
  });

  it('interrupted between the delete and the create: the re-run finds no identity and creates it', async () => {
    failedDkim({ zone: true });
    account.denied.push('ses:CreateEmailIdentity');
    const broken = await setup({ tty: false, argv: ['--yes'] });
    expect(broken.last).toBe(
      '✗ ses:CreateEmailIdentity: access denied; let these credentials call ses:CreateEmailIdentity, then run npm run setup again',
    );
    expect(broken.code).toBe(1);
    expect(account.identities).not.toHaveProperty(['jane.dev']);
    account.denied = [];
    const resumed = await setup({ script: { account: true, 'create-identity-jane.dev': true, 'dkim-records-jane.dev': true } });
    expect(resumed.asked).toEqual(['account', 'create-identity-jane.dev', 'dkim-records-jane.dev']);
    expect(account.writes).toEqual(['DeleteEmailIdentity jane.dev', 'CreateEmailIdentity jane.dev', ...newRecords()]);
    expect(resumed.code).toBe(2);
  });

  it('an address whose link expired (FAILED): the same one-line reason, then re-created after a yes (a new mail)', async () => {
    readyAccount();
    account.identities['hello@jane.dev'] = 'FAILED';
    const refused = await setup({ tty: false });
    expect(refused.last).toMatch(
      /^✗ re-create the SES identity hello@jane\.dev \(delete, create; AWS mails it a new link, valid 24 h\)\?: needs your yes; without a terminal pass --yes/,
    );
    expect(account.writes).toEqual([]);
    const run = await setup({ script: { account: true, 'recreate-identity-hello@jane.dev': true } });
    expect(run.text).toContain(
      "SES sender: hello@jane.dev: the link in SES's mail was not clicked within 24 h (FAILED) and SES sends no other by itself",
    );
    expect(account.writes).toEqual(['DeleteEmailIdentity hello@jane.dev', 'CreateEmailIdentity hello@jane.dev']);
    expect(run.code).toBe(2);
  });
});

describe('npm run setup, bad input: one line, the value and the fix', () => {
  const cases: [string, () => void, RunOptions, number, string | RegExp][] = [
    [
      'no credentials',
      () => vi.stubEnv('AWS_ACCESS_KEY_ID', ''),
      {},
      1,
      /^✗ ✗ No AWS credentials found|^✗ .*No AWS credentials found: run `aws configure`/,
    ],
    [
      'another account than --expect-account',
      readyAccount,
      { argv: ['--expect-account', '999999999999'] },
      1,
      `✗ account ${ACCOUNT} is not the expected 999999999999 (--expect-account): switch credentials (e.g. export AWS_PROFILE=NAME) and run again`,
    ],
    [
      'a malformed e-mail',
      () => undefined,
      { tty: false, argv: ['--yes', '--owner-email', 'jane-at-home'] },
      1,
      '✗ --owner-email jane-at-home: "jane-at-home" is not an e-mail address',
    ],
    [
      'a missing answer without a terminal',
      () => undefined,
      { tty: false, argv: ['--yes'] },
      1,
      '✗ Your address (receives the contact messages and the alarms): no answer without a terminal; pass --owner-email VALUE or set SETUP_OWNER_EMAIL',
    ],
    [
      "Google's test site key without --trial",
      () => {
        readyAccount();
        writeFileSync(file, readFileSync(file, 'utf8').replace(`"${SITE_KEY}"`, 'null'));
      },
      { tty: false, argv: ['--yes', '--recaptcha-site-key', RECAPTCHA_TEST_SITE_KEY] },
      1,
      new RegExp(`^✗ --recaptcha-site-key ${RECAPTCHA_TEST_SITE_KEY}: Google's public test key`),
    ],
    [
      'an empty secret',
      () => {
        readyAccount();
        account.parameters = {};
      },
      { tty: false, argv: ['--yes'], env: { RECAPTCHA_SECRET: '  ' } },
      1,
      "✗ reCAPTCHA secret: empty or with spaces around it; copy the key's legacy secret key again (reCAPTCHA admin console, or the key's details in the Google Cloud console)",
    ],
    [
      'an existing String parameter',
      () => {
        readyAccount();
        account.parameters['/portfolio/recaptcha-secret'] = { type: 'String', value: 'x' };
      },
      { tty: false, argv: ['--yes'] },
      1,
      /^✗ \/portfolio\/recaptcha-secret is a String, not a SecureString .*aws ssm delete-parameter/,
    ],
    [
      'a WebsiteURL that is not https',
      readyAccount,
      { tty: false, argv: ['--yes', '--request-production-access', '--website-url', 'http://jane.dev'] },
      1,
      '✗ WebsiteURL http://jane.dev: must start with https:// (pass --website-url https://…)',
    ],
    [
      'AccessDenied',
      () => {
        readyAccount();
        account.parameters = {};
        account.denied.push('ssm:PutParameter');
      },
      { tty: false, argv: ['--yes'], env: { RECAPTCHA_SECRET: SECRET } },
      1,
      '✗ ssm:PutParameter: access denied; let these credentials call ssm:PutParameter, then run npm run setup again',
    ],
    [
      'CDKToolkit in ROLLBACK_COMPLETE without a terminal',
      () => {
        readyAccount();
        toolkit('us-east-1', { status: 'ROLLBACK_COMPLETE', version: 33 });
      },
      { tty: false, argv: ['--yes'] },
      1,
      '✗ CDKToolkit in us-east-1 is ROLLBACK_COMPLETE: it must be deleted before bootstrapping; answer yes in a terminal or pass --delete-failed-bootstrap',
    ],
    [
      'a region without SES without a terminal',
      () => {
        readyAccount();
        writeFileSync(file, readFileSync(file, 'utf8').replace('"region": "us-east-1"', '"region": "ap-east-9"'));
      },
      { tty: false, argv: ['--yes', '--region', 'ap-east-9'] },
      1,
      '✗ region ap-east-9: SES is not offered in ap-east-9; pick one of us-east-1, us-east-2, us-west-1, us-west-2, af-south-1, ap-south-1, ap-south-2, ap-southeast-3, ap-northeast-3, eu-west-1 or another SES region',
    ],
    [
      'a change without a terminal and without --yes',
      () => undefined,
      { tty: false, argv: ['--owner-email', 'jane@owner-mail.dev', '--sender-email', 'hello@jane.dev'] },
      1,
      /^✗ Write this to cdk\.json\?: needs your yes; without a terminal pass --yes \(flags: --yes, --json/,
    ],
    [
      'a secret on the command line',
      () => undefined,
      { argv: ['--recaptcha-secret', 'x'] },
      1,
      /^✗ --recaptcha-secret: a secret is never read from the command line/,
    ],
    // Exit 1, not the other commands' usage code 2: setup's 2 means waiting.
    [
      'an unknown flag',
      () => undefined,
      { argv: ['--yes', '--owner-mail', 'jane@owner-mail.dev'] },
      1,
      /^✗ unknown option --owner-mail \(known: --yes, --json, .*--owner-email VALUE \(or SETUP_OWNER_EMAIL\).*RECAPTCHA_SECRET \(environment only\)\)$/,
    ],
    ['a flag without its value', () => undefined, { argv: ['--owner-email', '--yes'] }, 1, '✗ --owner-email needs a value'],
    ['--wait without minutes', () => undefined, { argv: ['--wait', 'soon'] }, 1, '✗ --wait soon: give the minutes to wait, e.g. --wait 30'],
    [
      'an account id that is not one',
      () => undefined,
      { argv: ['-y', '--expect-account', '1234'] },
      1,
      '✗ --expect-account 1234: an AWS account id has 12 digits',
    ],
    [
      'a domain sender whose DKIM failed after 72 h, without a terminal and without --yes',
      () => {
        failedDkim({ zone: true });
      },
      { tty: false },
      1,
      /^✗ restart the DKIM verification of jane\.dev \(delete and re-create the SES domain identity; new DKIM tokens, new CNAME records\)\?: needs your yes; without a terminal pass --yes \(flags: /,
    ],
  ];
  it.each(cases)('%s', async (_name, arrange, options, code, message) => {
    arrange();
    const before = readFileSync(file, 'utf8');
    const run = await setup({ tty: false, ...options });
    expect(run.code).toBe(code);
    if (typeof message === 'string') expect(run.last).toBe(message);
    else expect(run.last).toMatch(message);
    expect(run.last.split('\n')).toHaveLength(1);
    expect(run.asked).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

/** cdk.json without the answers asked once: no "sesProductionAccess" (and, with `domain`, no "domain" key). */
function undecided(options: { domain?: boolean } = {}) {
  const text = readFileSync(file, 'utf8');
  const answered = options.domain
    ? ',\n      "sesProductionAccess": false,\n      "domain": null'
    : ',\n      "sesProductionAccess": false';
  if (!text.includes(answered)) throw new Error('the fixture no longer holds the answers this helper removes');
  writeFileSync(file, text.replace(answered, ''));
}

describe('npm run setup, questions asked once (the answer stays in cdk.json)', () => {
  it('production access: a yes is written as "sesProductionAccess": true and sent once, not asked twice; a re-run asks nothing', async () => {
    readyAccount();
    undecided();
    const run = await setup({
      script: { account: true, 'request-production-access': true, 'write-cdk-json': true, 'website-url': 'https://www.jane.dev' },
    });
    expect(run.asked).toEqual(['account', 'request-production-access', 'write-cdk-json', 'website-url']);
    expect(run.text).toContain('a first answer within about a day');
    expect(run.text).toContain('+ "sesProductionAccess": true');
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.sesProductionAccess).toBe(true);
    expect(account.writes.filter((w) => w.startsWith('PutAccountDetails'))).toHaveLength(1);
    expect(run.code).toBe(2);
    expect(run.text).toContain(
      '- SES sending: AWS: the review (its answer comes by mail and in the Support Center); waiting since 2026-11-26 12:00 UTC (0 min)',
    );

    const again = await setup();
    expect(again.asked).toEqual([]);
    expect(account.writes.filter((w) => w.startsWith('PutAccountDetails'))).toHaveLength(1);
    expect(again.text).toContain(
      '- SES sending: AWS: the review (a first answer within about a day); since when: unknown (SES keeps no date for the request',
    );
  });

  it('production access: a no is written as "sesProductionAccess": false; the next run asks nothing and asks AWS nothing', async () => {
    readyAccount();
    undecided();
    const run = await setup({ script: { account: true, 'request-production-access': false, 'write-cdk-json': true } });
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.sesProductionAccess).toBe(false);
    const again = await setup();
    expect(again.asked).toEqual([]);
    expect(again.text).toContain('your answer in cdk.json, "sesProductionAccess": false');
    expect(account.writes).toEqual([]);
  });

  it('without a terminal nothing is asked: no answer in cdk.json keeps the sandbox and no domain, and writes nothing', async () => {
    readyAccount();
    undecided({ domain: true });
    const before = readFileSync(file, 'utf8');
    const run = await setup({ tty: false });
    expect(run.asked).toEqual([]);
    expect(run.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(run.text).toContain('optional: npm run setup -- --request-production-access');
  });

  it("CloudFront plan: states each tier's price and allowance and what pay-as-you-go risks, writes the answer, and a re-run asks nothing", async () => {
    readyAccount();
    const planLine = '      "cloudFrontPlan": "pro",\n';
    if (!readFileSync(file, 'utf8').includes(planLine)) throw new Error('the fixture no longer holds cloudFrontPlan');
    writeFileSync(file, readFileSync(file, 'utf8').replace(planLine, ''));
    const run = await setup({ script: { account: true, 'cloudfront-plan': 'free', 'write-cdk-json': true } });
    expect(run.asked).toEqual(['cloudfront-plan', 'account', 'write-cdk-json']);
    expect(run.text).toContain('Free: $0 a month, 1 M requests and 100 GB included, never billed more');
    expect(run.text).toContain('Pro: $15 a month, 10 M requests and 50 TB included, never billed more');
    expect(run.text).toContain('Business: $200 a month, 125 M requests and 50 TB included');
    expect(run.text).toContain('Premium: $1,000 a month, 500 M requests and 50 TB included');
    expect(run.text).toMatch(/Pay-as-you-go \(no plan\): billed per request and per GB, no ceiling/);
    expect(run.text).toContain('+ "cloudFrontPlan": "free"');
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.cloudFrontPlan).toBe('free');
    expect(run.code).toBe(0);
    const again = await setup();
    expect(again.asked).toEqual([]);
    expect(again.text).toContain('Free (cdk.json): $0 a month per distribution');
  });

  it('CloudFront plan: without a terminal nothing is asked (the default stands); --cloudfront-plan answers; a plan outside us-east-1 is refused', async () => {
    readyAccount();
    const planLine = '      "cloudFrontPlan": "pro",\n';
    writeFileSync(file, readFileSync(file, 'utf8').replace(planLine, ''));
    const before = readFileSync(file, 'utf8');
    const quiet = await setup({ tty: false });
    expect(quiet.asked).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(quiet.text).toContain('Pro (the default): $15 a month per distribution; approve each subscription after the deploy');

    const flagged = await setup({ tty: false, argv: ['--yes', '--cloudfront-plan', 'payAsYouGo'] });
    expect(flagged.asked).toEqual([]);
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.cloudFrontPlan).toBe('payAsYouGo');

    writeFileSync(file, before.replace('"region": "us-east-1"', '"region": "eu-west-1"'));
    sesRegions.add('eu-west-1');
    const refused = await setup({ tty: false, argv: ['--yes', '--cloudfront-plan', 'business'] });
    expect(refused.code).toBe(1);
    expect(refused.text).toMatch(/cloudFrontPlan: "business" needs portfolio\.region "us-east-1"/);
  });

  it('domain: "no" is written as "domain": null, and the next run asks nothing', async () => {
    readyAccount();
    undecided({ domain: true });
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"recaptchaSecretParameter"', '"sesProductionAccess": false,\n      "recaptchaSecretParameter"'),
    );
    const run = await setup({ script: { 'domain-dns': 'none', account: true, 'write-cdk-json': true } });
    expect(run.text).toContain('+ "domain": null');
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.domain).toBeNull();
    expect((await setup()).asked).toEqual([]);
  });

  it("domain in Route 53: asks the name, creates the zone, and lists the registrar change as the owner's, since the zone's creation", async () => {
    readyAccount();
    undecided({ domain: true });
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"recaptchaSecretParameter"', '"sesProductionAccess": false,\n      "recaptchaSecretParameter"'),
    );
    const run = await setup({
      script: {
        'domain-dns': 'route53',
        domain: 'WWW.jane.dev.',
        account: true,
        'hosted-zone-name': 'jane.dev',
        'create-hosted-zone': true,
        'write-cdk-json': true,
      },
    });
    expect(account.writes).toEqual(['CreateHostedZone jane.dev']);
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.domain).toMatchObject({
      domainName: 'www.jane.dev',
      hostedZoneName: 'jane.dev',
    });
    expect(run.code).toBe(2);
    clock += 3 * 3600_000;
    const later = await setup();
    expect(later.asked).toEqual([]);
    expect(later.text).toMatch(
      /- Name servers: you: at your registrar, set the name servers of jane\.dev to .*; waiting since 2026-11-26 12:00 UTC \(3 h\)/,
    );
  });

  it('domain at another DNS host: asks the name, requests the certificate; the wait is since its CreatedAt', async () => {
    readyAccount();
    undecided({ domain: true });
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"recaptchaSecretParameter"', '"sesProductionAccess": false,\n      "recaptchaSecretParameter"'),
    );
    account.clock = '2026-11-25T08:30:00Z';
    const run = await setup({
      script: { 'domain-dns': 'external', domain: 'www.jane.dev', account: true, 'request-certificate': true, 'write-cdk-json': true },
    });
    expect(account.writes).toEqual(['RequestCertificate www.jane.dev']);
    expect(run.code).toBe(2);
    expect(run.text).toMatch(/- Certificate: you: at your DNS host, publish .*; waiting since 2026-11-25 08:30 UTC \(28 h\)/);
  });

  it('refuses a zone apex for another DNS host at the question, naming why', async () => {
    readyAccount();
    undecided({ domain: true });
    const validate = await import('./steps/domain');
    expect(validate.domainQuestionProblem('jane.dev', true)).toBe(
      '"jane.dev" is a zone apex: another DNS host cannot point it at CloudFront (a CNAME cannot sit at the apex); use www.jane.dev',
    );
    expect(validate.domainQuestionProblem('jane.dev', false)).toBeUndefined();
    expect(validate.domainQuestionProblem('not a host', false)).toBe('"not a host" is not a host name such as www.your.domain');
  });

  it('region: "another region" takes a typed name, which the account then judges', async () => {
    readyAccount();
    writeFileSync(file, readFileSync(file, 'utf8').replace('"region": "us-east-1"', '"region": "ap-east-9"'));
    sesRegions.add('eu-central-1');
    toolkit('eu-central-1', bootstrapped());
    const run = await setup({ script: { region: 'other', 'region-other': 'eu-central-1', account: true, 'write-cdk-json': true } });
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.region).toBe('eu-central-1');
    expect(run.code).toBe(0);
  });
});

describe('npm run setup, the pending list: who must act, and since when', () => {
  it("a mail click since the identity setup created (its tag), a DKIM wait since the key generation, a bootstrap since CloudFormation's time", async () => {
    const first = await setup({ script: FIRST_RUN });
    expect(first.text).toContain(
      '- SES sender: you: click the link in the mail to hello@jane.dev within 24 h, then run npm run setup again; waiting since 2026-11-26 12:00 UTC (0 min)',
    );
    clock += 2 * 86_400_000;
    const later = await setup();
    expect(later.text).toContain('hello@jane.dev within 24 h, then run npm run setup again; waiting since 2026-11-26 12:00 UTC (2 days)');

    account.identities['jane.dev'] = 'PENDING';
    account.dkim['jane.dev'] = { tokens: ['t1'], status: 'PENDING', keyAt: '2026-11-27T06:00:00Z' };
    toolkit('us-east-1', { status: 'UPDATE_IN_PROGRESS', version: 30, since: '2026-11-28T11:50:00Z' });
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"recaptchaSiteKey"', '"senderIdentity": "jane.dev",\n      "recaptchaSiteKey"'),
    );
    const run = await setup();
    expect(run.text).toContain(
      '- CDK bootstrap us-east-1: AWS: CloudFormation is still working on it; waiting since 2026-11-28 11:50 UTC (10 min)',
    );
    expect(run.text).toMatch(
      /- SES sender: you: publish at your DNS host t1\._domainkey\.jane\.dev CNAME t1\.dkim\.amazonses\.com .*; waiting since 2026-11-27 06:00 UTC \(30 h\)/,
    );
  });

  it("a foreign zone id in cdk.json replaced by this account's public zone: the registrar wait is dated by the zone in use", async () => {
    readyAccount();
    const domain = { domainName: 'www.jane.dev', hostedZoneId: 'ZFOREIGN0000000000001', hostedZoneName: 'jane.dev' };
    writeFileSync(file, readFileSync(file, 'utf8').replace('"domain": null', `"domain": ${JSON.stringify(domain)}`));
    account.zones.push(
      zone({
        id: 'ZPUBLIC00000000000001',
        name: 'jane.dev',
        records: {},
        nameServers: ['ns-1.awsdns-01.org'],
        callerReference: 'portfolio-setup-jane.dev-1795676400000',
      }),
    );
    const run = await setup({ tty: false, argv: ['--yes'] });
    expect(JSON.parse(readFileSync(file, 'utf8')).context.portfolio.domain.hostedZoneId).toBe('ZPUBLIC00000000000001');
    expect(run.code).toBe(2);
    expect(run.text).toMatch(/- Name servers: you: at your registrar, .*; waiting since 2026-11-26 07:00 UTC \(5 h\)/);
  });

  it('an identity setup did not create, and a pending alarm subscription: the date is plainly unknown', async () => {
    readyAccount();
    account.identities['hello@jane.dev'] = 'PENDING';
    await deployed('owner=jane@owner-mail.dev');
    const run = await setup();
    expect(run.code).toBe(2);
    expect(run.text).toContain(
      '- SES sender: you: click the link in the mail to hello@jane.dev within 24 h, then run npm run setup again; since when: unknown (the identity was not created by npm run setup, and SES keeps no creation date)',
    );
    expect(run.text).toContain('(SNS drops it after 48 h); since when: unknown (SNS lists a pending subscription without its date)');
  });

  it('--json carries since (ISO 8601) or sinceUnknown on each waiting result', async () => {
    readyAccount();
    account.identities['hello@jane.dev'] = 'PENDING';
    account.identityTags['hello@jane.dev'] = [{ Key: 'portfolio:setup-created-at', Value: '2026-11-26T09:15:00.000Z' }];
    const lines: string[] = [];
    const code = await runSetup({
      argv: ['--json'],
      env: {},
      tty: false,
      deps: {
        prompter: scriptedPrompter({}),
        clients,
        print: () => {},
        out: (t) => lines.push(t),
        runCdk: () => 0,
        readStdin: async () => '',
        sleep: async () => {},
        now: () => clock,
      },
    });
    expect(code).toBe(2);
    const json = JSON.parse(lines.join('\n')) as { results: { step: string; outcome: string; since?: string }[] };
    expect(json.results.find((r) => r.outcome === 'waiting')).toMatchObject({ step: 'SES sender', since: '2026-11-26T09:15:00.000Z' });
  });
});
