/** npm run github-setup's fence on the repository itself, against a fake GitHub: what it sets, and what it prints when it cannot. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROLLBACK_ENVIRONMENT as WORKFLOW_ENVIRONMENT } from '../../../tools/workflow-policy';
import {
  applyProtections,
  BRANCH_LIKE_TAGS,
  type GitHubCall,
  type GitHubRequest,
  ROLLBACK_ENVIRONMENT,
  TAG_RULESET_NAME,
} from './protections';
import { protectionReport } from './run';

const REPO = { owner: 'jane', name: 'site' };

/** A GitHub that answers each call by its method and path (200 and {} unless told), and records them. */
function github(answers: Record<string, { status: number; body?: unknown }> = {}) {
  const calls: GitHubRequest[] = [];
  const call: GitHubCall = async (request) => {
    calls.push(request);
    return (
      answers[`${request.method} ${request.path}`] ?? {
        status: request.method === 'POST' ? 201 : 200,
        body: request.path === 'user' ? { id: 4242 } : [],
      }
    );
  };
  return { calls, call };
}

describe('the repository fence', () => {
  it('is the environment the rollback workflow waits in', () => {
    expect(ROLLBACK_ENVIRONMENT).toBe(WORKFLOW_ENVIRONMENT);
  });

  it("sets the environment (the token's user reviews, main only) and the tag ruleset", async () => {
    const { calls, call } = github();
    expect(await applyProtections(REPO, call)).toEqual([]);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET user',
      `PUT repos/jane/site/environments/${ROLLBACK_ENVIRONMENT}`,
      `POST repos/jane/site/environments/${ROLLBACK_ENVIRONMENT}/deployment-branch-policies`,
      'GET repos/jane/site/rulesets?includes_parents=false',
      'POST repos/jane/site/rulesets',
    ]);
    expect(calls[1]!.body).toMatchObject({
      reviewers: [{ type: 'User', id: 4242 }],
      deployment_branch_policy: { custom_branch_policies: true },
    });
    expect(calls[2]!.body).toEqual({ name: 'main', type: 'branch' });
    expect(calls[4]!.body).toMatchObject({
      target: 'tag',
      enforcement: 'active',
      bypass_actors: [],
      rules: [{ type: 'creation' }, { type: 'update' }, { type: 'deletion' }],
    });
    expect(BRANCH_LIKE_TAGS).toEqual(expect.arrayContaining(['refs/tags/main', 'refs/tags/origin/**/*']));
  });

  it("updates its own ruleset on a second run, and takes main already being the environment's branch", async () => {
    const { calls, call } = github({
      [`POST repos/jane/site/environments/${ROLLBACK_ENVIRONMENT}/deployment-branch-policies`]: { status: 303 },
      'GET repos/jane/site/rulesets?includes_parents=false': {
        status: 200,
        body: [
          { id: 7, name: 'other' },
          { id: 9, name: TAG_RULESET_NAME },
        ],
      },
    });
    expect(await applyProtections(REPO, call)).toEqual([]);
    expect(calls.at(-1)).toMatchObject({ method: 'PUT', path: 'repos/jane/site/rulesets/9' });
  });

  it('says what it could not set, and prints the gh calls that do, valid bash', async () => {
    const { call } = github({
      [`PUT repos/jane/site/environments/${ROLLBACK_ENVIRONMENT}`]: { status: 403 },
      'POST repos/jane/site/rulesets': { status: 403 },
    });
    const report = await protectionReport(REPO, call);
    expect(report).toContain(`PUT repos/jane/site/environments/${ROLLBACK_ENVIRONMENT} (GitHub answered 403)`);
    expect(report).toContain('the tag ruleset (GitHub answered 403)');
    expect(report).toContain('Rollback refuses to run');
    expect(report).toContain(`gh api -X PUT repos/jane/site/environments/${ROLLBACK_ENVIRONMENT} --input - <<JSON`);
    expect(report).toContain('"id": $(gh api user --jq .id)');
    expect(
      spawnSync('bash', ['-n'], {
        input: report
          .split('\n')
          .filter((l) => !/^(Not set|Run these)/.test(l))
          .join('\n'),
      }).status,
    ).toBe(0);
  });

  it('without a token, prints the calls and sets nothing', async () => {
    const report = await protectionReport(REPO, undefined);
    expect(report).toContain('no GITHUB_TOKEN or GH_TOKEN');
    expect(report).toContain('gh api -X POST repos/jane/site/rulesets --input - <<JSON');
  });
});
