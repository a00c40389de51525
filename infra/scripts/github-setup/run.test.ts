/** npm run github-setup's decisions, without GitHub or AWS: the repository, its ids, the provider, the variables. */
import { describe, expect, it } from 'vitest';
import {
  existingProvider,
  type FetchLike,
  instructions,
  lookupRepository,
  parseGithubSetupArgs,
  providerToImport,
  repositoryFromRemote,
  repositoryVariables,
  resolveRepository,
} from './run';

const answer = (status: number, body: unknown): ReturnType<FetchLike> =>
  Promise.resolve({ ok: status >= 200 && status < 300, status, json: () => Promise.resolve(body) });

describe('the repository', () => {
  it.each([
    ['https://github.com/jane-doe/portfolio.git', 'jane-doe/portfolio'],
    ['https://github.com/jane-doe/portfolio', 'jane-doe/portfolio'],
    ['git@github.com:jane-doe/portfolio.git', 'jane-doe/portfolio'],
    ['ssh://git@github.com/jane-doe/portfolio.git', 'jane-doe/portfolio'],
    ['https://gitlab.com/jane-doe/portfolio.git', undefined],
  ])('from the remote %s', (url, repo) => {
    expect(repositoryFromRemote(url)).toBe(repo);
  });

  const repoBody = (extra: Record<string, unknown> = {}) => ({
    id: 7654321,
    full_name: 'Jane-Doe/portfolio',
    owner: { id: 1234567 },
    created_at: '2021-03-01T00:00:00Z',
    private: false,
    fork: false,
    ...extra,
  });
  /** GitHub's two answers: the repository, then its OIDC subject settings. */
  const github = (repo: unknown, oidc: [number, unknown]) => {
    const seen: { url: string; auth?: string }[] = [];
    const fetchFn: FetchLike = (url, init) => {
      seen.push({ url, auth: init?.headers?.Authorization });
      return url.endsWith('/actions/oidc/customization/sub') ? answer(oidc[0], oidc[1]) : answer(200, repo);
    };
    return { seen, fetchFn };
  };

  it('reads the subject form from GitHub: its own prefix, with the token when there is one', async () => {
    const { seen, fetchFn } = github(repoBody(), [200, { use_default: true, sub_claim_prefix: 'repo:Jane-Doe@1234567/portfolio@7654321' }]);
    await expect(lookupRepository('jane-doe/portfolio', fetchFn, 'ghp_x')).resolves.toEqual({
      repository: { owner: 'Jane-Doe', name: 'portfolio', ids: { owner: 1234567, repository: 7654321 } },
      facts: { private: false, fork: false },
    });
    expect(seen).toEqual([
      { url: 'https://api.github.com/repos/jane-doe/portfolio', auth: 'Bearer ghp_x' },
      { url: 'https://api.github.com/repos/jane-doe/portfolio/actions/oidc/customization/sub', auth: 'Bearer ghp_x' },
    ]);
    const names = github(repoBody(), [200, { use_default: true, sub_claim_prefix: 'repo:Jane-Doe/portfolio' }]);
    await expect(lookupRepository('jane-doe/portfolio', names.fetchFn)).resolves.toMatchObject({
      repository: { owner: 'Jane-Doe', name: 'portfolio' },
    });
    expect((await lookupRepository('jane-doe/portfolio', names.fetchFn)).repository.ids).toBeUndefined();
  });

  it('an existing repository keeps the name-only subject unless it opted in', async () => {
    const notOptedIn = github(repoBody(), [200, { use_default: true, use_immutable_subject: false }]);
    expect((await lookupRepository('jane-doe/portfolio', notOptedIn.fetchFn)).repository.ids).toBeUndefined();
    const optedIn = github(repoBody(), [200, { use_default: true, use_immutable_subject: true }]);
    expect((await lookupRepository('jane-doe/portfolio', optedIn.fetchFn)).repository.ids).toEqual({ owner: 1234567, repository: 7654321 });
  });

  it('without the OIDC settings: a repository created from 2026-07-15 has immutable subjects; an older one cannot be told', async () => {
    const recent = github(repoBody({ created_at: '2026-07-15T08:00:00Z', private: true, fork: true }), [404, {}]);
    await expect(lookupRepository('jane-doe/portfolio', recent.fetchFn)).resolves.toEqual({
      repository: { owner: 'Jane-Doe', name: 'portfolio', ids: { owner: 1234567, repository: 7654321 } },
      facts: { private: true, fork: true },
    });
    const older = github(repoBody(), [403, {}]);
    await expect(lookupRepository('jane-doe/portfolio', older.fetchFn)).rejects.toThrow(
      /Cannot tell which subject Jane-Doe\/portfolio's tokens carry \(GitHub answered 403.*--name-only-subject.*--owner-id 1234567 --repo-id 7654321/,
    );
  });

  it('refuses a customized subject, and says how to go back to the default', async () => {
    const custom = github(repoBody(), [200, { use_default: false, include_claim_keys: ['repository_owner', 'context'] }]);
    await expect(lookupRepository('jane-doe/portfolio', custom.fetchFn)).rejects.toThrow(
      /customizes its OIDC subject \(repository_owner, context\).*gh api -X PUT repos\/Jane-Doe\/portfolio\/actions\/oidc\/customization\/sub -F use_default=true/,
    );
  });

  it('says how to pass the ids when GitHub does not answer', async () => {
    await expect(lookupRepository('jane/private', () => answer(404, {}))).rejects.toThrow(
      /404 for jane\/private \(a private repository needs GITHUB_TOKEN or GH_TOKEN\).*gh api repos\/jane\/private/,
    );
    await expect(lookupRepository('jane/odd', () => answer(200, { id: 'x' }))).rejects.toThrow(/no id, owner id or full name/);
  });

  it('takes --repo, then the origin remote; ids from flags, GitHub, or none with --name-only-subject', async () => {
    const deps = {
      remoteUrl: () => 'git@github.com:jane/site.git',
      fetch: github({ id: 2, full_name: 'jane/site', owner: { id: 1 }, created_at: '2026-08-01T00:00:00Z' }, [404, {}]).fetchFn,
    };
    await expect(resolveRepository(parseGithubSetupArgs([]), deps)).resolves.toMatchObject({
      repository: { owner: 'jane', name: 'site', ids: { owner: 1, repository: 2 } },
    });
    await expect(
      resolveRepository(parseGithubSetupArgs(['--repo', 'ann/web', '--owner-id', '5', '--repo-id', '6']), deps),
    ).resolves.toEqual({
      repository: { owner: 'ann', name: 'web', ids: { owner: 5, repository: 6 } },
    });
    await expect(resolveRepository(parseGithubSetupArgs(['--name-only-subject']), deps)).resolves.toEqual({
      repository: { owner: 'jane', name: 'site' },
    });
    await expect(resolveRepository(parseGithubSetupArgs(['--owner-id', '5']), deps)).rejects.toThrow(/go together/);
    await expect(resolveRepository(parseGithubSetupArgs([]), { ...deps, remoteUrl: () => undefined })).rejects.toThrow(
      /--repo OWNER\/NAME/,
    );
  });

  it('passes what it does not know to cdk deploy', () => {
    expect(parseGithubSetupArgs(['--repo', 'a/b', '--require-approval', 'never']).rest).toEqual(['--require-approval', 'never']);
    expect(() => parseGithubSetupArgs(['--repo'])).toThrow(/--repo needs a value/);
  });
});

describe('the OIDC provider', () => {
  const ARN = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';

  it("is the account's when it has one, read through the AWS CLI", () => {
    const calls: string[][] = [];
    const found = existingProvider('123456789012', (args) => {
      calls.push(args);
      return { status: 0, stdout: JSON.stringify({ ClientIDList: ['sts.amazonaws.com'] }), stderr: '' };
    });
    expect(found).toEqual({ arn: ARN, audiences: ['sts.amazonaws.com'] });
    expect(calls[0]).toEqual(['iam', 'get-open-id-connect-provider', '--open-id-connect-provider-arn', ARN, '--output', 'json']);
    expect(
      existingProvider('123456789012', () => ({ status: 254, stdout: '', stderr: 'An error occurred (NoSuchEntity)' })),
    ).toBeUndefined();
    expect(() => existingProvider('1', () => ({ status: 255, stdout: '', stderr: 'AccessDenied' }))).toThrow(/AccessDenied/);
  });

  it('is imported, unless none exists or this stack made it (importing would delete it)', () => {
    const provider = { arn: ARN, audiences: ['sts.amazonaws.com'] };
    expect(providerToImport(undefined, undefined)).toBeUndefined();
    expect(providerToImport(provider, undefined)).toBe(ARN);
    expect(providerToImport(provider, { OidcProviderOwned: 'no' })).toBe(ARN);
    expect(providerToImport(provider, { OidcProviderOwned: 'yes' })).toBeUndefined();
  });
});

describe('what it prints', () => {
  const outputs = {
    ProductionRoleArn: 'arn:aws:iam::123456789012:role/Portfolio-GitHub-ProductionRole',
    PreviewRoleArn: 'arn:aws:iam::123456789012:role/Portfolio-GitHub-PreviewRole',
    PreviewBucketName: 'portfolio-previews-123456789012-eu-west-1',
  };
  const site = { SiteUrl: 'https://d111111abcdef8.cloudfront.net', PreviewUrl: 'https://d222222abcdef8.cloudfront.net' };

  it('the repository variables, never a secret; production from main only', () => {
    const variables = repositoryVariables('123456789012', 'eu-west-1', outputs, site);
    expect(variables.map(([name]) => name)).toEqual([
      'AWS_ACCOUNT_ID',
      'AWS_REGION',
      'AWS_PRODUCTION_ROLE_ARN',
      'AWS_PREVIEW_ROLE_ARN',
      'AWS_PREVIEW_BUCKET',
      'SITE_URL',
      'PREVIEW_URL',
    ]);
    const text = instructions({ owner: 'jane', name: 'site' }, variables);
    expect(text).toContain("gh variable set SITE_URL --repo jane/site --body 'https://d111111abcdef8.cloudfront.net'");
    expect(text).not.toContain('not deployed yet');
    expect(text).toContain(
      "gh variable set AWS_PREVIEW_ROLE_ARN --repo jane/site --body 'arn:aws:iam::123456789012:role/Portfolio-GitHub-PreviewRole'",
    );
    expect(text).toContain('Production deploys only from main');
    expect(text).not.toMatch(/environments\/production/);
    expect(text).not.toMatch(/secret set|AWS_SECRET|ACCESS_KEY/i);
    expect(() => repositoryVariables('1', 'eu-west-1', {}, site)).toThrow(/no ProductionRoleArn/);
  });

  it('before the live stack exists: no SITE_URL or PREVIEW_URL, and a line saying to run it again after the first deploy', () => {
    const variables = repositoryVariables('123456789012', 'eu-west-1', outputs, undefined);
    expect(variables.map(([name]) => name)).not.toContain('SITE_URL');
    expect(instructions({ owner: 'jane', name: 'site' }, variables)).toContain(
      'run npm run github-setup again for SITE_URL and PREVIEW_URL',
    );
  });

  it('a fork: enable Actions; a private repository: no write tokens for forks', () => {
    const variables = repositoryVariables('123456789012', 'eu-west-1', outputs, site);
    const plain = instructions({ owner: 'jane', name: 'site' }, variables, { private: false, fork: false });
    expect(plain).not.toMatch(/fork/i);
    const fork = instructions({ owner: 'jane', name: 'site' }, variables, { private: false, fork: true });
    expect(fork).toContain('GitHub runs none of its workflows until you enable Actions (jane/site → Actions)');
    const privateRepo = instructions({ owner: 'jane', name: 'site' }, variables, { private: true, fork: false });
    expect(privateRepo).toContain('keep "Send write tokens to workflows from pull requests" off for forks');
  });
});
