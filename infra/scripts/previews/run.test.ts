/** The previews' bookkeeping without GitHub or AWS: which stacks are previews, the limit, the sticky comment, the sweep. */
import { describe, expect, it } from 'vitest';
import {
  closedPreviews,
  COMMENT_MARKER,
  commentBody,
  gate,
  type GitHubApi,
  githubFromEnv,
  openPreviews,
  upsertComment,
  waitUntilSettled,
} from './run';

const stacks = [
  { StackName: 'Portfolio', StackStatus: 'UPDATE_COMPLETE' },
  { StackName: 'Portfolio-GitHub', StackStatus: 'CREATE_COMPLETE' },
  { StackName: 'Portfolio-pr-12', StackStatus: 'UPDATE_IN_PROGRESS' },
  { StackName: 'Portfolio-pr-3', StackStatus: 'CREATE_COMPLETE' },
  { StackName: 'Portfolio-pr-4', StackStatus: 'DELETE_COMPLETE' },
  { StackName: 'Portfolio-preview', StackStatus: 'CREATE_COMPLETE' },
  { StackName: 'Other-pr-5', StackStatus: 'CREATE_COMPLETE' },
];

describe('open previews', () => {
  it('are the <stackName>-pr-N stacks that exist, by pull request', () => {
    expect(openPreviews(stacks, 'Portfolio')).toEqual([
      { pr: 3, stackName: 'Portfolio-pr-3', status: 'CREATE_COMPLETE' },
      { pr: 12, stackName: 'Portfolio-pr-12', status: 'UPDATE_IN_PROGRESS' },
    ]);
  });
});

describe('the gate', () => {
  const open = openPreviews(stacks, 'Portfolio');

  it('lets an existing preview update, and a new one in below the limit', () => {
    expect(gate(12, open, 2)).toEqual({ allowed: true });
    expect(gate(20, open, 3)).toEqual({ allowed: true });
  });

  it('refuses a new preview at the limit, naming the open ones and what to do', () => {
    const decision = gate(20, open, 2);
    expect(decision.allowed).toBe(false);
    expect(!decision.allowed && decision.reason).toMatch(/2 previews are open \(#3, #12\) and the limit is 2\. Close one .* PREVIEW_LIMIT \(at most 10\)/);
  });

  it('refuses every preview when previews are off', () => {
    expect(gate(3, open, 0)).toEqual({ allowed: false, reason: expect.stringMatching(/Previews are off/) });
  });
});

/** A fake GitHub holding one pull request's comments. */
function fakeGitHub(comments: { id: number; body: string; user: { login: string } }[], pulls: Record<number, string> = {}) {
  const calls: string[] = [];
  const api: GitHubApi = {
    async request(method, route, body) {
      calls.push(`${method} ${route}`);
      if (method === 'GET' && route.startsWith('/issues/')) {
        const page = Number(/[?&]page=(\d+)/.exec(route)![1]);
        return comments.slice((page - 1) * 100, page * 100);
      }
      if (method === 'GET' && route.startsWith('/pulls/')) {
        const state = pulls[Number(route.split('/')[2])];
        if (state === 'unavailable') throw Object.assign(new Error('GitHub answered 502'), { status: 502 });
        if (!state) throw Object.assign(new Error('GitHub answered 404'), { status: 404 });
        return { state };
      }
      if (method === 'PATCH') comments.find((c) => route.endsWith(`/${c.id}`))!.body = (body as { body: string }).body;
      if (method === 'POST') comments.push({ id: 999, body: (body as { body: string }).body, user: { login: 'github-actions[bot]' } });
      return {};
    },
  };
  return { api, calls, comments };
}

describe('the sticky comment', () => {
  it('is posted once, then edited on every push', async () => {
    const github = fakeGitHub([{ id: 1, body: 'Looks good', user: { login: 'jane' } }]);
    expect(await upsertComment(github.api, 7, commentBody({ kind: 'deployed', url: 'https://d1.cloudfront.net', sha: 'abcdef0123' }))).toBe('created');
    expect(await upsertComment(github.api, 7, commentBody({ kind: 'deployed', url: 'https://d1.cloudfront.net', sha: '1234567890' }))).toBe('updated');
    const mine = github.comments.filter((c) => c.body.startsWith(COMMENT_MARKER));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.body).toContain('**Preview:** https://d1.cloudfront.net');
    expect(mine[0]!.body).toContain('Built from 1234567');
  });

  it("finds the workflow's comment beyond the first page, and ignores anyone else's copy of the marker", async () => {
    const others = Array.from({ length: 100 }, (_, i) => ({ id: i + 10, body: `${COMMENT_MARKER} quoted`, user: { login: 'jane' } }));
    const github = fakeGitHub([...others, { id: 5, body: `${COMMENT_MARKER}\nold`, user: { login: 'github-actions[bot]' } }]);
    expect(await upsertComment(github.api, 7, commentBody({ kind: 'removed', stage: 'pr-7' }))).toBe('updated');
    expect(github.calls).toEqual(['GET /issues/7/comments?per_page=100&page=1', 'GET /issues/7/comments?per_page=100&page=2', 'PATCH /issues/comments/5']);
    expect(github.comments.find((c) => c.id === 5)!.body).toContain('removed (stage pr-7');
  });

  it('says why there is no preview', () => {
    expect(commentBody({ kind: 'refused', reason: 'Previews are off.' })).toBe(`${COMMENT_MARKER}\n**Preview:** none. Previews are off.`);
  });
});

describe('the sweep', () => {
  it('picks previews whose pull request is closed or gone, and leaves open ones and those GitHub cannot answer for', async () => {
    const extra = ['Portfolio-pr-40', 'Portfolio-pr-41'].map((StackName) => ({ StackName, StackStatus: 'CREATE_COMPLETE' }));
    const open = openPreviews([...stacks, ...extra], 'Portfolio');
    const github = fakeGitHub([], { 3: 'open', 12: 'closed', 41: 'unavailable' });
    expect((await closedPreviews(open, github.api)).map((p) => p.pr)).toEqual([12, 40]);
  });

  it('waits for a deploy in progress before removing, and gives up after its limit', async () => {
    const statuses = ['UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_COMPLETE'];
    const slept: number[] = [];
    const describe = async () => statuses.shift();
    await expect(waitUntilSettled(describe, async (ms) => void slept.push(ms), { everyMs: 10, maxMs: 100 })).resolves.toBe('UPDATE_COMPLETE');
    expect(slept).toEqual([10, 10]);
    await expect(waitUntilSettled(async () => 'CREATE_IN_PROGRESS', async () => {}, { everyMs: 10, maxMs: 30 })).rejects.toThrow(
      /still CREATE_IN_PROGRESS after/,
    );
    await expect(waitUntilSettled(async () => undefined)).resolves.toBeUndefined();
  });
});

describe('the GitHub client', () => {
  it('needs the workflow token and repository, and sends them', async () => {
    expect(() => githubFromEnv({})).toThrow(/GITHUB_TOKEN and GITHUB_REPOSITORY/);
    const seen: { url: string; auth: string }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, auth: (init.headers as Record<string, string>).Authorization! });
      return new Response('[]', { status: 200 });
    }) as typeof fetch;
    await githubFromEnv({ GITHUB_TOKEN: 't', GITHUB_REPOSITORY: 'jane/site' }, fakeFetch).request('GET', '/pulls/1');
    expect(seen).toEqual([{ url: 'https://api.github.com/repos/jane/site/pulls/1', auth: 'Bearer t' }]);
    const failing = (async () => new Response('nope', { status: 403 })) as typeof fetch;
    await expect(githubFromEnv({ GITHUB_TOKEN: 't', GITHUB_REPOSITORY: 'jane/site' }, failing).request('GET', '/x')).rejects.toThrow(/403 to GET \/x: nope/);
  });
});
