/**
 * What `npm run github-setup` sets on the repository itself, so that only main reaches production:
 *  - the environment production-rollback, whose required reviewer (the person running the setup)
 *    approves every rollback before the production role is assumed, deployable from main only;
 *  - a tag ruleset that forbids creating, moving or deleting tags named like branches (main,
 *    origin/…, heads/…, remotes/…, refs/…): git resolves a tag before a remote-tracking branch of
 *    the same short name, and GitHub's commits/main answers for a tag named main.
 * With a token that may administer the repository it sets both through GitHub's REST API; otherwise
 * it prints the `gh api` calls that do, for the owner to run. Either way nothing is secret.
 * Availability: required reviewers on GitHub Free, Pro and Team in public repositories only; rulesets
 * in public repositories on Free, in private ones from Pro (GitHub REST, "REST API endpoints for
 * deployment environments": https://docs.github.com/en/rest/deployments/environments; GitHub Docs,
 * "Creating rulesets for a repository", fnmatch patterns:
 * https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/creating-rulesets-for-a-repository).
 */
import type { GitHubRepository } from '../../lib/deploy-fence';

/** The environment rollback.yml's approval job runs in (tools/workflow-policy.ts holds the workflow to it). */
export const ROLLBACK_ENVIRONMENT = 'production-rollback';
export const TAG_RULESET_NAME = 'No tags named like branches';

/** Tags a revision of main could be mistaken for (fnmatch; `**` crosses slashes). */
export const BRANCH_LIKE_TAGS = [
  'refs/tags/main',
  'refs/tags/origin/**/*',
  'refs/tags/heads/**/*',
  'refs/tags/remotes/**/*',
  'refs/tags/refs/**/*',
];

export interface GitHubRequest {
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  body?: unknown;
}

/**
 * The environment with its reviewer and branch policy ("Create or update an environment", reviewers
 * and deployment_branch_policy; "Create a deployment branch policy": name main, type branch).
 */
export function environmentRequests(repository: GitHubRepository, reviewerId: number): GitHubRequest[] {
  const at = `repos/${repository.owner}/${repository.name}/environments/${ROLLBACK_ENVIRONMENT}`;
  return [
    {
      method: 'PUT',
      path: at,
      body: {
        reviewers: [{ type: 'User', id: reviewerId }],
        prevent_self_review: false,
        deployment_branch_policy: { protected_branches: false, custom_branch_policies: true },
      },
    },
    { method: 'POST', path: `${at}/deployment-branch-policies`, body: { name: 'main', type: 'branch' } },
  ];
}

/** The tag ruleset ("Create a repository ruleset": target tag, creation, update and deletion restricted, no bypass). */
export function tagRuleset(): Record<string, unknown> {
  return {
    name: TAG_RULESET_NAME,
    target: 'tag',
    enforcement: 'active',
    bypass_actors: [],
    conditions: { ref_name: { include: BRANCH_LIKE_TAGS, exclude: [] } },
    rules: [{ type: 'creation' }, { type: 'update' }, { type: 'deletion' }],
  };
}

export type GitHubCall = (request: GitHubRequest) => Promise<{ status: number; body?: unknown }>;

/**
 * Sets both through the API. Returns what could not be set (the token may not administer the
 * repository, or the plan lacks the feature), with GitHub's status, for the printed fallback.
 */
export async function applyProtections(repository: GitHubRepository, call: GitHubCall): Promise<string[]> {
  const failed: string[] = [];
  const user = await call({ method: 'GET', path: 'user' });
  const reviewer = (user.body as { id?: unknown } | undefined)?.id;
  if (user.status !== 200 || typeof reviewer !== 'number') failed.push(`the token's user (GitHub answered ${user.status})`);
  else {
    for (const request of environmentRequests(repository, reviewer)) {
      const answer = await call(request);
      // 303/409/422 on the branch policy: main is already the environment's branch.
      if (answer.status >= 300 && !(request.method === 'POST' && [303, 409, 422].includes(answer.status))) {
        failed.push(`${request.method} ${request.path} (GitHub answered ${answer.status})`);
        break;
      }
    }
  }
  const rulesets = `repos/${repository.owner}/${repository.name}/rulesets`;
  const listed = await call({ method: 'GET', path: `${rulesets}?includes_parents=false` });
  const existing = Array.isArray(listed.body)
    ? (listed.body as { id?: number; name?: string }[]).find((r) => r.name === TAG_RULESET_NAME)
    : undefined;
  const answer =
    listed.status !== 200
      ? listed
      : await call(
          existing?.id !== undefined
            ? { method: 'PUT', path: `${rulesets}/${existing.id}`, body: tagRuleset() }
            : { method: 'POST', path: rulesets, body: tagRuleset() },
        );
  if (answer.status >= 300) failed.push(`the tag ruleset (GitHub answered ${answer.status})`);
  return failed;
}

/** The same as `gh api` calls the owner runs (the reviewer: whoever runs them). */
export function protectionCommands(repository: GitHubRepository): string {
  const [environment, branchPolicy] = environmentRequests(repository, 0) as [GitHubRequest, GitHubRequest];
  const json = (body: unknown) => JSON.stringify(body, null, 2).replace('"id": 0', '"id": $(gh api user --jq .id)');
  const call = (request: GitHubRequest) => `gh api -X ${request.method} ${request.path} --input - <<JSON\n${json(request.body)}\nJSON`;
  return [
    `# The environment ${ROLLBACK_ENVIRONMENT}: you approve every rollback; it deploys from main only.`,
    call(environment),
    call(branchPolicy),
    '# The tag ruleset: no tag named like a branch (a tag named main or origin/main would stand for main).',
    call({ method: 'POST', path: `repos/${repository.owner}/${repository.name}/rulesets`, body: tagRuleset() }),
  ].join('\n');
}
