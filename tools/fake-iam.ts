/**
 * The fake AWS's role check: whether an identity policy allows one request, as IAM decides it for the
 * few forms this project's roles use: Allow and Deny statements, Action and Resource with * and ?
 * wildcards (NotAction and NotResource refused), and the StringEquals and StringLike condition
 * operators on single-valued keys (IAM User Guide, "Policy evaluation logic" and "IAM JSON policy
 * elements: Condition operators": https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html,
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html).
 * Anything else in a statement throws: a policy this check cannot read never allows by mistake.
 * The proof that the real roles hold in IAM is infra/lib/github-iam.test.ts's simulation; this lets a
 * workflow's own commands run against the fake with the same policy.
 */
import type { PolicyStatementJson } from '../infra/lib/deploy-fence';

export type { PolicyStatementJson };

/** "s3:Put*" → /^s3:Put.*$/i for actions (case-insensitive in IAM), case-sensitive for resources and values. */
function wildcard(pattern: string, caseInsensitive: boolean): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, caseInsensitive ? 'i' : '');
}

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : [value].flat());

function conditionHolds(condition: PolicyStatementJson['Condition'], context: Record<string, string>): boolean {
  for (const [operator, keys] of Object.entries(condition ?? {})) {
    for (const [key, expected] of Object.entries(keys)) {
      const actual = context[key];
      if (actual === undefined) return false; // a key absent from the request never matches these operators
      const values = list(expected);
      if (operator === 'StringEquals') {
        if (!values.includes(actual)) return false;
      } else if (operator === 'StringLike') {
        if (!values.some((v) => wildcard(v, false).test(actual))) return false;
      } else {
        throw new Error(`the fake's role check does not know the condition operator ${operator}`);
      }
    }
  }
  return true;
}

function matches(statement: PolicyStatementJson, action: string, resource: string, context: Record<string, string>): boolean {
  if (statement.NotAction !== undefined || statement.NotResource !== undefined) {
    throw new Error(`the fake's role check does not read NotAction or NotResource (statement ${statement.Sid})`);
  }
  return (
    list(statement.Action).some((a) => wildcard(a, true).test(action)) &&
    list(statement.Resource).some((r) => wildcard(r, false).test(resource)) &&
    conditionHolds(statement.Condition, context)
  );
}

/** Allowed when a statement allows the request and none denies it (an explicit Deny wins). */
export function policyAllows(
  statements: readonly PolicyStatementJson[],
  action: string,
  resource: string,
  context: Record<string, string> = {},
): boolean {
  const applying = statements.filter((s) => matches(s, action, resource, context));
  return applying.some((s) => s.Effect === 'Allow') && !applying.some((s) => s.Effect === 'Deny');
}
