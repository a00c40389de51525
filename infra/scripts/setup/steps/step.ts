/**
 * What a setup step is, and what every step uses: its outcomes, the waits' dates, an AWS refusal as one
 * line, a change shown and asked for before it is applied.
 */
import { errorText } from '../../kit/aws';
import { SetupError, type SetupContext, type StepResult } from '../context';

export interface Step {
  id: string;
  run(ctx: SetupContext): Promise<StepResult[]>;
}

/** An AWS refusal as one line naming the IAM action that was missing. */
export function awsFailure(action: string, error: unknown): SetupError {
  if (/AccessDenied|UnauthorizedOperation|not authorized/i.test(errorText(error))) {
    return new SetupError(`${action}: access denied; let these credentials call ${action}, then run npm run setup again`);
  }
  return new SetupError(`${action} failed (${errorText(error)})`);
}
export async function call<T>(action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw awsFailure(action, error);
  }
}

export const result = (step: string, outcome: StepResult['outcome'], detail: string, waitingOn?: string): StepResult => ({
  step,
  outcome,
  detail,
  ...(waitingOn ? { waitingOn } : {}),
});

/** Since when a wait lasts: a date the account gives, or plainly why none is known. */
export type Since = Pick<StepResult, 'since' | 'sinceUnknown'>;
export const sinceDate = (date: Date | undefined, unknown: string): Since =>
  date instanceof Date && !Number.isNaN(date.getTime()) ? { since: date.toISOString() } : { sinceUnknown: unknown };
/** A wait that starts with this run (a change just made, or the owner's "not now"). */
export const fromNow = (ctx: SetupContext): Since => ({ since: new Date(ctx.deps.now()).toISOString() });
export const waiting = (step: string, detail: string, waitingOn: string, since: Since): StepResult => ({
  ...result(step, 'waiting', detail, waitingOn),
  ...since,
});

/** The change a failed check calls for: shown with its cost, asked, applied, then the check runs again. */
interface Plan {
  change: string;
  cost: string;
  consentId: string;
  apply: () => Promise<unknown>;
  optional?: boolean;
}

export async function applyPlan(ctx: SetupContext, step: string, plan: Plan): Promise<boolean> {
  ctx.print(`${step}: ${plan.change}\n  cost: ${plan.cost}`);
  if (!(await ctx.consent(plan.consentId, `${plan.change}?`, { optional: plan.optional }))) return false;
  await plan.apply();
  return true;
}
