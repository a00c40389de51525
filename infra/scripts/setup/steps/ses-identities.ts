/** npm run setup, steps 5–6: SES identities. */
import { ChangeResourceRecordSetsCommand, ListHostedZonesByNameCommand, ListResourceRecordSetsCommand } from '@aws-sdk/client-route-53';
import { CreateEmailIdentityCommand, DeleteEmailIdentityCommand, GetAccountCommand, GetEmailIdentityCommand } from '@aws-sdk/client-sesv2';
import { errorName } from '../../kit/aws';
import { isRoute53Domain } from '../../../config/portfolio-config';
import { bareName as bare, checkOwner, checkSender, isAddress } from '../../doctor/checks';
import type { SetupContext, StepResult } from '../context';
import { type Step, awsFailure, call, result, sinceDate, fromNow, waiting, applyPlan } from './step';

/**
 * The three Easy DKIM records of a domain: `token._domainkey.DOMAIN CNAME token.<SigningHostedZone>`, the
 * zone SES gives the identity (SES API Reference v2, DkimAttributes SigningHostedZone:
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_DkimAttributes.html). It is not the same
 * everywhere: some regions sign from their own DKIM domain, e.g. af-south-1, ap-south-2, ap-southeast-3
 * and ap-northeast-3 (AWS General Reference, "Amazon Simple Email Service endpoints and quotas", Easy
 * DKIM domains: https://docs.aws.amazon.com/general/latest/gr/ses.html). Only an answer without the
 * field falls back to dkim.amazonses.com (SES API Reference, VerifyDomainDkim:
 * https://docs.aws.amazon.com/ses/latest/APIReference/API_VerifyDomainDkim.html).
 */
export function dkimRecords(domain: string, tokens: string[], signingZone = 'dkim.amazonses.com'): { name: string; value: string }[] {
  const zone = bare(signingZone);
  return tokens.map((token) => ({ name: `${token}._domainkey.${domain}`, value: `${token}.${zone}` }));
}

/** The public hosted zone in this account that holds `name` (longest suffix first), if any. */
export async function zoneFor(ctx: SetupContext, name: string): Promise<{ id: string; name: string } | undefined> {
  const labels = bare(name).split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const suffix = labels.slice(i).join('.');
    const answer = await call('route53:ListHostedZonesByName', () =>
      ctx.clients.route53.send(new ListHostedZonesByNameCommand({ DNSName: suffix, MaxItems: 10 })),
    );
    const zone = (answer.HostedZones ?? []).find((z) => bare(z.Name ?? '') === suffix && z.Config?.PrivateZone !== true);
    if (zone) return { id: (zone.Id ?? '').replace('/hostedzone/', ''), name: suffix };
  }
  return undefined;
}

/**
 * SES mails an address a link that is valid for 24 hours; after that the identity is FAILED and must be
 * created again. Source: SES API Reference, GetIdentityVerificationAttributes ("If the link is not clicked
 * within 24 hours, the verification status changes to Failed"):
 * https://docs.aws.amazon.com/ses/latest/APIReference/API_GetIdentityVerificationAttributes.html
 */
const LINK_HOURS = 24;
/**
 * SES looks for the DKIM records for up to 72 hours. Source: SES API Reference, VerifyDomainDkim
 * ("This detection process might take up to 72 hours"):
 * https://docs.aws.amazon.com/ses/latest/APIReference/API_VerifyDomainDkim.html
 */
const DKIM_HOURS = 72;

/**
 * The tag setup puts on an identity it creates, holding when (ISO 8601): SES keeps no creation date for
 * an identity, but CreateEmailIdentity takes Tags and GetEmailIdentity returns them (SES API Reference v2,
 * CreateEmailIdentity "Tags" and GetEmailIdentity "Tags"):
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_CreateEmailIdentity.html
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_GetEmailIdentity.html
 */
export const CREATED_TAG = 'portfolio:setup-created-at';

async function identityState(ctx: SetupContext, identity: string) {
  try {
    const r = await ctx.clients.sesv2.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
    const tagged = r.Tags?.find((t) => t.Key === CREATED_TAG)?.Value;
    return {
      found: true,
      status: r.VerificationStatus ?? 'PENDING',
      dkim: r.DkimAttributes?.Status ?? 'NOT_STARTED',
      tokens: r.DkimAttributes?.Tokens ?? [],
      signingZone: r.DkimAttributes?.SigningHostedZone,
      createdAt: tagged ? new Date(tagged) : undefined,
      // "[Easy DKIM] The last time a key pair was generated for this identity" (SES API Reference v2,
      // DkimAttributes LastKeyGenerationTimestamp): https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_DkimAttributes.html
      dkimKeyAt: r.DkimAttributes?.LastKeyGenerationTimestamp,
    };
  } catch (error) {
    if (errorName(error) === 'NotFoundException')
      return {
        found: false,
        status: 'NOT_FOUND',
        dkim: 'NOT_STARTED',
        tokens: [] as string[],
        signingZone: undefined,
        createdAt: undefined,
        dkimKeyAt: undefined,
      };
    throw awsFailure('ses:GetEmailIdentity', error);
  }
}

/** Domain identities whose DKIM records this run wrote into a zone (so the domain step does not write them twice). */
const dkimWritten = new WeakMap<SetupContext, Set<string>>();

/** The records not yet in the zone with that value (read first, so a re-run while SES looks writes nothing). */
async function missingRecords(ctx: SetupContext, zoneId: string, records: { name: string; value: string }[]) {
  const missing = [];
  for (const r of records) {
    const answer = await call('route53:ListResourceRecordSets', () =>
      ctx.clients.route53.send(
        new ListResourceRecordSetsCommand({ HostedZoneId: zoneId, StartRecordName: r.name, StartRecordType: 'CNAME', MaxItems: 1 }),
      ),
    );
    const found = answer.ResourceRecordSets?.[0];
    const same =
      found &&
      bare(found.Name ?? '') === bare(r.name) &&
      found.Type === 'CNAME' &&
      (found.ResourceRecords ?? []).some((v) => bare(v.Value ?? '') === bare(r.value));
    if (!same) missing.push(r);
  }
  return missing;
}

/** Writes (after a yes) the DKIM CNAMEs the zone lacks; false when the owner said no. */
async function writeDkimRecords(
  ctx: SetupContext,
  step: string,
  identity: string,
  zone: { id: string; name: string },
  records: { name: string; value: string }[],
): Promise<boolean> {
  const missing = await missingRecords(ctx, zone.id, records);
  const applied =
    missing.length === 0 ||
    (await applyPlan(ctx, step, {
      change: `write ${missing.length} DKIM CNAME record${missing.length > 1 ? 's' : ''} of ${identity} into the Route 53 zone ${zone.name}`,
      cost: 'nothing beyond the hosted zone (docs/deploy.md, "What it costs a month")',
      consentId: `dkim-records-${identity}`,
      apply: () =>
        call('route53:ChangeResourceRecordSets', () =>
          ctx.clients.route53.send(
            new ChangeResourceRecordSetsCommand({
              HostedZoneId: zone.id,
              ChangeBatch: {
                Comment: `SES DKIM for ${identity} (npm run setup)`,
                Changes: missing.map((r) => ({
                  Action: 'UPSERT' as const,
                  ResourceRecordSet: { Name: r.name, Type: 'CNAME' as const, TTL: 1800, ResourceRecords: [{ Value: r.value }] },
                })),
              },
            }),
          ),
        ),
    }));
  if (applied) dkimWritten.set(ctx, new Set([...(dkimWritten.get(ctx) ?? []), identity]));
  return applied;
}

const inZone = (name: string, zone: string) => name === zone || name.endsWith(`.${zone}`);

/**
 * The Route 53 zone the domain step sets up later in this run that will hold `identity`, when there is
 * none yet: the configured domain's zone, or the one --domain/--hosted-zone-name (or their variables) name.
 */
function zoneToCome(ctx: SetupContext, identity: string): string | undefined {
  const configured = isRoute53Domain(ctx.config.domain) ? ctx.config.domain.hostedZoneName : undefined;
  const wanted = ctx.options.answers.domain ?? ctx.options.env.SETUP_DOMAIN;
  const named = ctx.options.answers['hosted-zone-name'] ?? ctx.options.env.SETUP_HOSTED_ZONE_NAME;
  const zone = configured ?? (wanted && !ctx.options.externalDns && named ? bare(named) : undefined);
  return zone && inZone(bare(identity), zone) ? zone : undefined;
}

/** After the domain step made or found the zone: the DKIM records of a domain sender inside it, unless written already. */
export async function dkimIntoNewZone(ctx: SetupContext, zone: { id: string; name: string }): Promise<StepResult[]> {
  const identity = ctx.config.senderIdentity;
  if (isAddress(identity) || !inZone(bare(identity), zone.name) || dkimWritten.get(ctx)?.has(identity)) return [];
  const state = await identityState(ctx, identity);
  if (!state.found || state.dkim === 'SUCCESS' || state.dkim === 'FAILED' || state.tokens.length === 0) return [];
  if (!(await writeDkimRecords(ctx, 'SES sender', identity, zone, dkimRecords(identity, state.tokens, state.signingZone)))) {
    return [
      result('SES sender', 'waiting', `${identity}: DKIM records not written (your answer)`, 'you: run npm run setup again to write them'),
    ];
  }
  return [result('SES sender', 'changed', `${identity}: DKIM records in the zone ${zone.name} (SES checks them, up to ${DKIM_HOURS} h)`)];
}

/**
 * Why a FAILED identity is deleted and created again: SES does not look again by itself. A domain's
 * FAILED DKIM status means SES "was unable to detect the DNS records within 72 hours" and an address's
 * that the mail "was not acknowledged within 24 hours" (SES Developer Guide, "Managing identities in
 * Amazon SES", status Failure): https://docs.aws.amazon.com/ses/latest/dg/managing-identities.html; when DKIM is
 * revoked "you must restart the DKIM set-up procedure from the beginning" (SES Developer Guide,
 * "Troubleshooting DKIM problems"): https://docs.aws.amazon.com/ses/latest/dg/troubleshoot-dkim.html.
 * SES API v2 has no retry call: CreateEmailIdentity "Starts the process of verifying an email identity"
 * (and gives a domain a new set of DKIM tokens), DeleteEmailIdentity removes one:
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_CreateEmailIdentity.html
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_DeleteEmailIdentity.html
 * Delete then create is safe to interrupt: a run that finds no identity creates it.
 */
function restartText(identity: string): { why: string; change: string } {
  return isAddress(identity)
    ? {
        why: `${identity}: the link in SES's mail was not clicked within ${LINK_HOURS} h (FAILED) and SES sends no other by itself; deleting and re-creating the identity sends a new one`,
        change: `re-create the SES identity ${identity} (delete, create; AWS mails it a new link, valid ${LINK_HOURS} h)`,
      }
    : {
        why: `${identity}: SES did not find its DKIM records within ${DKIM_HOURS} h (FAILED) and does not look again by itself; deleting and re-creating the identity restarts the check, with three new DKIM records`,
        change: `restart the DKIM verification of ${identity} (delete and re-create the SES domain identity; new DKIM tokens, new CNAME records)`,
      };
}

/** Creates (or, after a failed verification, re-creates) an identity; a domain's DKIM records go into its zone when it is here. */
async function ensureIdentity(ctx: SetupContext, step: string, identity: string): Promise<StepResult> {
  let state = await identityState(ctx, identity);
  const failed = state.found && (isAddress(identity) ? state.status === 'FAILED' : state.dkim === 'FAILED');
  if (!state.found || failed) {
    const restart = failed ? restartText(identity) : undefined;
    if (restart) ctx.print(`${step}: ${restart.why}`);
    const applied = await applyPlan(ctx, step, {
      change:
        restart?.change ??
        (isAddress(identity)
          ? `create the SES identity ${identity} (AWS mails it a link, valid ${LINK_HOURS} h)`
          : `create the SES domain identity ${identity} (three DKIM CNAME records to publish)`),
      cost: 'nothing for the identity; SES bills per mail sent (docs/deploy.md, "What it costs a month")',
      consentId: failed
        ? isAddress(identity)
          ? `recreate-identity-${identity}`
          : `restart-dkim-${identity}`
        : `create-identity-${identity}`,
      apply: async () => {
        if (failed) {
          await call('ses:DeleteEmailIdentity', async () => {
            try {
              await ctx.clients.sesv2.send(new DeleteEmailIdentityCommand({ EmailIdentity: identity }));
            } catch (error) {
              if (errorName(error) !== 'NotFoundException') throw error;
            }
          });
        }
        await call('ses:CreateEmailIdentity', () =>
          ctx.clients.sesv2.send(
            new CreateEmailIdentityCommand({
              EmailIdentity: identity,
              Tags: [{ Key: CREATED_TAG, Value: new Date(ctx.deps.now()).toISOString() }],
            }),
          ),
        );
      },
    });
    if (!applied) {
      return failed
        ? waiting(
            step,
            `${identity}: verification FAILED, not restarted (your answer)`,
            'you: run npm run setup again and answer yes to restart it',
            fromNow(ctx),
          )
        : waiting(step, `${identity} is not an SES identity (your answer)`, 'you: run npm run setup again to create it', fromNow(ctx));
    }
    state = await identityState(ctx, identity);
  }
  const notOurs = 'the identity was not created by npm run setup, and SES keeps no creation date';
  if (isAddress(identity)) {
    if (state.status === 'SUCCESS') return result(step, 'changed', `${identity} verified`);
    return waiting(
      step,
      `${identity}: verification mail sent`,
      `you: click the link in the mail to ${identity} within ${LINK_HOURS} h, then run npm run setup again`,
      sinceDate(state.createdAt, notOurs),
    );
  }
  const dkimSince = sinceDate(state.dkimKeyAt ?? state.createdAt, notOurs);
  const records = dkimRecords(identity, state.tokens, state.signingZone);
  const listing = records.map((r) => `${r.name} CNAME ${r.value}`).join('; ');
  if (state.dkim === 'SUCCESS') return result(step, 'changed', `${identity} verified (DKIM)`);
  const zone = await zoneFor(ctx, identity);
  if (zone && records.length > 0) {
    if (!(await writeDkimRecords(ctx, step, identity, zone, records))) {
      return waiting(step, `${identity}: DKIM records not written (your answer)`, 'you: run npm run setup again to write them', dkimSince);
    }
    return waiting(step, `${identity}: DKIM records in the zone ${zone.name}`, `AWS: SES checks them (up to ${DKIM_HOURS} h)`, dkimSince);
  }
  const coming = zoneToCome(ctx, identity);
  if (coming && records.length > 0) {
    // The domain step below creates (or finds) that zone in this run and writes the records there.
    return waiting(
      step,
      `${identity}: DKIM records go into the Route 53 zone ${coming} (set up below)`,
      `AWS: SES checks them once they are there (up to ${DKIM_HOURS} h)`,
      dkimSince,
    );
  }
  return waiting(
    step,
    `${identity}: DKIM ${state.dkim}`,
    `you: publish at your DNS host ${listing} (SES looks for up to ${DKIM_HOURS} h)`,
    dkimSince,
  );
}

export const senderStep: Step = {
  id: 'sender',
  async run(ctx) {
    const check = await call('ses:GetEmailIdentity', () => checkSender(ctx.clients.sesv2, ctx.config));
    if (check.status === 'pass') return [result('SES sender', 'ready', check.detail)];
    const domainVerified = /but its domain (\S+) is verified/.exec(check.detail)?.[1];
    if (domainVerified) {
      await ctx.writeConfig({ senderIdentity: domainVerified });
      return [
        result('SES sender', 'changed', `sending as ${ctx.config.senderEmail} through the verified domain ${domainVerified} (cdk.json)`),
      ];
    }
    return [await ensureIdentity(ctx, 'SES sender', ctx.config.senderIdentity)];
  },
};

export async function sesAccount(ctx: SetupContext) {
  return call('ses:GetAccount', () => ctx.clients.sesv2.send(new GetAccountCommand({})));
}

export const ownerStep: Step = {
  id: 'owner',
  async run(ctx) {
    const sandbox = (await sesAccount(ctx)).ProductionAccessEnabled !== true;
    const check = await call('ses:GetEmailIdentity', () => checkOwner(ctx.clients.sesv2, ctx.config, sandbox));
    if (check.status === 'pass') return [result('SES owner', 'ready', check.detail)];
    return [await ensureIdentity(ctx, 'SES owner', ctx.config.ownerEmail)];
  },
};
