/** npm run setup, step 9: domain: hosted zone and delegation. */
import { DescribeCertificateCommand, RequestCertificateCommand } from '@aws-sdk/client-acm';
import { CreateHostedZoneCommand, GetHostedZoneCommand } from '@aws-sdk/client-route-53';
import { UpdateDomainNameserversCommand } from '@aws-sdk/client-route-53-domains';
import { errorName } from '../../kit/aws';
import { stackOutputs } from '../../kit/stack-outputs';
import { STACK_OUTPUT_KEYS } from '../../../shared/stack-output-keys';
import { type DomainConfig, isRoute53Domain } from '../../../config/portfolio-config';
import { bareName, checkCertificate, checkDelegation, checkHostedZone } from '../../doctor/checks';
import { portfolioBlockHas } from '../cdk-json';
import { SetupError, type SetupContext, type StepResult } from '../context';
import { type Step, awsFailure, call, result, type Since, sinceDate, fromNow, waiting, applyPlan } from './step';
import { zoneFor, dkimIntoNewZone } from './ses-identities';

const HOST = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * The CallerReference setup gives a zone it creates ends in the creation time (ms): Route 53 keeps no
 * creation date, but returns "The value that you specified for CallerReference when you created the
 * hosted zone" (Route 53 API Reference, HostedZone): https://docs.aws.amazon.com/Route53/latest/APIReference/API_HostedZone.html
 */
const ZONE_REFERENCE = 'portfolio-setup-';

/** When setup created the zone, from its CallerReference; unknown for a zone made another way. */
async function zoneCreated(ctx: SetupContext, zoneId: string): Promise<Since> {
  const unknown = 'the zone was not created by npm run setup, and Route 53 keeps no creation date';
  try {
    const zone = await ctx.clients.route53.send(new GetHostedZoneCommand({ Id: zoneId }));
    const reference = zone.HostedZone?.CallerReference ?? '';
    const ms = reference.startsWith(ZONE_REFERENCE) ? Number(/-(\d{13})$/.exec(reference)?.[1]) : NaN;
    return sinceDate(Number.isFinite(ms) ? new Date(ms) : undefined, unknown);
  } catch (error) {
    if (errorName(error) === 'NoSuchHostedZone') return { sinceUnknown: 'the zone is gone' };
    throw awsFailure('route53:GetHostedZone', error);
  }
}

async function findOrCreateZone(ctx: SetupContext, zoneName: string): Promise<string> {
  const existing = await zoneFor(ctx, zoneName);
  if (existing?.name === zoneName) return existing.id;
  const applied = await applyPlan(ctx, 'Hosted zone', {
    change: `create the public Route 53 hosted zone ${zoneName}`,
    cost: 'a hosted zone is billed monthly (docs/deploy.md, "What it costs a month")',
    consentId: 'create-hosted-zone',
    apply: async () => {
      // Looked up again just before creating, so a retry never makes a second zone.
      if ((await zoneFor(ctx, zoneName))?.name === zoneName) return;
      await call('route53:CreateHostedZone', () =>
        ctx.clients.route53.send(
          new CreateHostedZoneCommand({ Name: zoneName, CallerReference: `${ZONE_REFERENCE}${zoneName}-${ctx.deps.now()}` }),
        ),
      );
    },
  });
  if (!applied) throw new SetupError(`hosted zone ${zoneName}: not created (your answer); run npm run setup again, or drop --domain`);
  const zone = await zoneFor(ctx, zoneName);
  if (!zone) throw new SetupError(`hosted zone ${zoneName}: created but not found by name; run npm run setup again`);
  return zone.id;
}

/**
 * The token that makes a repeated request (a retry after Ctrl-C) return the same certificate: ACM treats
 * calls with one token within an hour as one request. Source: ACM API Reference, RequestCertificate,
 * IdempotencyToken (as in the AWS SDK for Kotlin reference, "Idempotency tokens time out after one hour"):
 * https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/acm/aws.sdk.kotlin.services.acm.model/-request-certificate-request/idempotency-token.html
 * Letters and digits only, at most 32: a conservative form (the token's own limits were not looked up).
 */
export const idempotencyToken = (domainName: string) => `portfolio${domainName.replace(/[^a-z0-9]/g, '')}`.slice(0, 32);

async function requestCertificate(ctx: SetupContext, domainName: string): Promise<string> {
  let arn = '';
  const applied = await applyPlan(ctx, 'Certificate', {
    change: `request a public certificate for ${domainName} in us-east-1 (validated by a DNS record you publish at your DNS host)`,
    cost: 'nothing (public ACM certificates used by CloudFront are free; docs/deploy.md, "What it costs a month")',
    consentId: 'request-certificate',
    apply: async () => {
      const answer = await call('acm:RequestCertificate', () =>
        ctx.clients.acm.send(
          new RequestCertificateCommand({
            DomainName: domainName,
            ValidationMethod: 'DNS',
            IdempotencyToken: idempotencyToken(domainName),
          }),
        ),
      );
      arn = answer.CertificateArn ?? '';
    },
  });
  if (!applied || !arn)
    throw new SetupError(`certificate for ${domainName}: not requested (your answer); run npm run setup again, or drop --domain`);
  return arn;
}

/** External DNS: wait for the certificate, then (after a deploy) show the record that points the name at CloudFront. */
async function externalDns(ctx: SetupContext, domain: DomainConfig): Promise<StepResult[]> {
  const arn = domain.certificateArn!;
  const check = await checkCertificate(ctx.clients.acm, arn);
  if (check.status !== 'pass') {
    const described = await call('acm:DescribeCertificate', () =>
      ctx.clients.acm.send(new DescribeCertificateCommand({ CertificateArn: arn })),
    );
    const status = described.Certificate?.Status ?? 'UNKNOWN';
    if (status !== 'PENDING_VALIDATION') throw new SetupError(`${check.detail}: ${check.fix ?? ''}`);
    const record = described.Certificate?.DomainValidationOptions?.[0]?.ResourceRecord;
    // ACM adds the validation record to the description a few seconds after the request.
    const what = record
      ? `publish ${record.Name} ${record.Type} ${record.Value}`
      : 'run npm run setup again in a minute for the record to publish';
    // CertificateDetail.CreatedAt, "The time at which the certificate was requested" (ACM API Reference):
    // https://docs.aws.amazon.com/acm/latest/APIReference/API_CertificateDetail.html
    const requested = sinceDate(described.Certificate?.CreatedAt, 'ACM gave no request time');
    return [waiting('Certificate', check.detail, `you: at your DNS host, ${what} (ACM then issues it)`, requested)];
  }
  const results = [result('Certificate', 'ready', check.detail)];
  const outputs = await call('cloudformation:DescribeStacks', () =>
    stackOutputs(ctx.config.stackName, ctx.config.region, ctx.clients.cloudFormation(ctx.config.region)),
  );
  const target = outputs?.[STACK_OUTPUT_KEYS.distributionDomain];
  results.push(
    target
      ? result(
          'Site record',
          'ready',
          `at your DNS host: ${domain.domainName} CNAME ${target} (the site answers there once it is published)`,
        )
      : result(
          'Site record',
          'skipped',
          `after the first deploy: then publish ${domain.domainName} CNAME <the distribution's domain>, which npm run setup prints`,
        ),
  );
  return results;
}

/** What is wrong with a typed host name (a zone apex cannot be served from another DNS host), else undefined. */
export function domainQuestionProblem(value: string, external: boolean): string | undefined {
  const v = bareName(value);
  if (!HOST.test(v)) return `"${value}" is not a host name such as www.your.domain`;
  if (external && v.split('.').length < 3)
    return `"${v}" is a zone apex: another DNS host cannot point it at CloudFront (a CNAME cannot sit at the apex); use www.${v}`;
  return undefined;
}

/**
 * The owner's choice of a domain, in a terminal: none, a Route 53 zone in this account (found, or created
 * billed monthly), or DNS at another host (setup requests the certificate; a zone apex cannot be used).
 */
async function askDomain(ctx: SetupContext): Promise<{ name: string; external: boolean } | undefined> {
  const kind = await ctx.deps.prompter.select({
    id: 'domain-dns',
    message: 'Serve the site on a domain of yours?',
    options: [
      { value: 'none', label: 'No: on its CloudFront address (you can add a domain later)' },
      { value: 'route53', label: 'Yes, its DNS in Route 53 in this account (setup finds the zone or creates one, billed monthly)' },
      { value: 'external', label: 'Yes, its DNS at another host (setup requests the certificate; you publish two records there)' },
    ],
  });
  if (kind === 'none') return undefined;
  const external = kind === 'external';
  const name = await ctx.ask('domain', {
    message: external
      ? "The site's host name, not the bare domain (e.g. www.your.domain)"
      : "The site's host name (e.g. www.your.domain, or your.domain itself)",
    validate: (value) => domainQuestionProblem(value, external),
  });
  return { name: bareName(name), external };
}

export const domainStep: Step = {
  id: 'domain',
  async run(ctx) {
    let wanted = bareName(ctx.options.answers.domain ?? ctx.options.env.SETUP_DOMAIN ?? '');
    if (wanted && !HOST.test(wanted)) throw new SetupError(`--domain ${wanted}: not a host name such as www.example.dev`);
    let external = ctx.options.externalDns;
    // Asked once, in a terminal, while cdk.json has no "domain" key; "domain": null keeps the answer "none".
    if (!wanted && ctx.options.interactive && !portfolioBlockHas('domain')) {
      const answer = await askDomain(ctx);
      if (!answer) {
        await ctx.writeConfig({ domain: null });
        return [
          result(
            'Domain',
            'changed',
            'none: the site is served on its CloudFront address (cdk.json: "domain": null; npm run setup -- --domain www.your.domain adds one later)',
          ),
        ];
      }
      ({ name: wanted, external } = answer);
    }
    const results: StepResult[] = [];
    if (wanted && wanted !== ctx.config.domain?.domainName) {
      if (external) {
        if (wanted.split('.').length < 3) {
          throw new SetupError(
            `--domain ${wanted} --external-dns: a zone apex cannot point at CloudFront from another DNS host (a CNAME cannot sit at the apex); use www.${wanted}, or a Route 53 zone (drop --external-dns)`,
          );
        }
        const certificateArn = await requestCertificate(ctx, wanted);
        await ctx.writeConfig({ domain: { domainName: wanted, certificateArn } });
        results.push(result('Certificate', 'changed', `requested for ${wanted} (cdk.json: certificateArn)`));
      } else {
        const found = await zoneFor(ctx, wanted);
        const zoneName =
          found?.name ??
          (await ctx.ask('hosted-zone-name', {
            message: `The Route 53 zone to create for ${wanted} (the domain you registered)`,
            validate: (v) => (wanted === v || wanted.endsWith(`.${v}`) ? undefined : `"${wanted}" is not inside the zone "${v}"`),
            initial: wanted.split('.').length > 2 ? wanted.split('.').slice(1).join('.') : wanted,
          }));
        const id = found?.id ?? (await findOrCreateZone(ctx, zoneName));
        await ctx.writeConfig({ domain: { domainName: wanted, hostedZoneId: id, hostedZoneName: zoneName } });
        results.push(result('Hosted zone', 'changed', `${wanted} in the zone ${zoneName} (${id}) (cdk.json)`));
      }
    }
    const domain = ctx.config.domain;
    if (!domain)
      return [
        result(
          'Domain',
          'skipped',
          'none: the site is served on its CloudFront address (npm run setup -- --domain www.your.domain adds one)',
        ),
      ];
    // Just requested: its state (the validation record to publish) is the row to show.
    if (!isRoute53Domain(domain)) return externalDns(ctx, domain);
    let zone = await checkHostedZone(ctx.clients.route53, domain);
    if (!zone.nameServers) {
      // A private, foreign or missing zone: the public zone of that name in this account, or a new one.
      ctx.print(`Hosted zone: ${zone.result.detail}`);
      const id = await findOrCreateZone(ctx, domain.hostedZoneName);
      await ctx.writeConfig({ domain: { ...domain, hostedZoneId: id } });
      zone = await checkHostedZone(ctx.clients.route53, { ...domain, hostedZoneId: id });
      if (!zone.nameServers) throw new SetupError(`hosted zone: ${zone.result.detail}`);
      results.push(result('Hosted zone', 'changed', zone.result.detail));
    } else if (results.length === 0) results.push(result('Hosted zone', 'ready', zone.result.detail));
    if (results.some((r) => r.step === 'Hosted zone' && r.outcome === 'changed') && isRoute53Domain(ctx.config.domain)) {
      results.push(...(await dkimIntoNewZone(ctx, { id: ctx.config.domain.hostedZoneId, name: ctx.config.domain.hostedZoneName })));
    }
    const delegation = await checkDelegation(ctx.clients, domain, zone.nameServers);
    if (delegation.status === 'pass') {
      results.push(result('Name servers', 'ready', delegation.detail));
      return results;
    }
    const zoneName = domain.hostedZoneName;
    if (/Route 53 Domains/.test(delegation.detail)) {
      const applied = await applyPlan(ctx, 'Name servers', {
        change: `point ${zoneName} (registered with Route 53 Domains) at the zone's name servers ${zone.nameServers.join(', ')}`,
        cost: 'nothing',
        consentId: 'update-name-servers',
        apply: () =>
          call('route53domains:UpdateDomainNameservers', () =>
            ctx.clients.route53Domains.send(
              new UpdateDomainNameserversCommand({ DomainName: zoneName, Nameservers: zone.nameServers!.map((Name) => ({ Name })) }),
            ),
          ),
      });
      results.push(
        applied
          ? waiting('Name servers', `${zoneName}: name servers updated`, 'DNS: the change spreads (up to 48 h)', fromNow(ctx))
          : waiting('Name servers', delegation.detail, 'you: run npm run setup again to update them', fromNow(ctx)),
      );
      return results;
    }
    results.push(
      waiting(
        'Name servers',
        delegation.detail,
        `you: at your registrar, set the name servers of ${zoneName} to ${zone.nameServers.join(', ')}`,
        // The zone in use now: a private or foreign one in cdk.json was just replaced by this account's public one.
        await zoneCreated(ctx, isRoute53Domain(ctx.config.domain) ? ctx.config.domain.hostedZoneId : domain.hostedZoneId),
      ),
    );
    return results;
  },
};
