/**
 * The rules every GitHub workflow of this repository keeps (docs/deploy.md, "Deploy from GitHub"), read
 * from the YAML itself. checkWorkflows returns each broken rule with the file and job; none means the
 * workflows keep every rule. tools/workflow-policy.test.ts runs it on .github/workflows
 * and proves each rule on a broken copy.
 */
import { parse } from 'yaml';

export const RULES = {
  'no-pull-request-target': 'no workflow runs on pull_request_target (it hands secrets to code from forks)',
  'top-level-permissions': 'the workflow grants nothing at the top: `permissions: {}`',
  'job-permissions':
    'each job names its own permissions, only from the least set (contents: read, actions: read, pull-requests: write, id-token: write)',
  'id-token-only-with-role': 'id-token: write exactly in the jobs that assume an AWS role',
  'pinned-by-sha': 'every action is pinned by a full commit SHA',
  'persist-credentials': 'every actions/checkout step has persist-credentials: false',
  'allowed-account-ids': 'every role assumption names the role from a variable and allowed-account-ids',
  'role-matches-subject':
    "a role only in jobs without an environment: production (it trusts main's ref subject) outside pull requests, preview (it trusts the pull_request subject) only in them",
  'no-install-with-token':
    'a job that holds an OIDC token installs nothing that runs code (npm ci --ignore-scripts or no install) and builds, synthesizes and tests nothing: it deploys what a job without a token built',
  'no-branch-code-with-token':
    "in a pull-request workflow, a job that holds an OIDC token checks nothing out: the branch's code never runs next to a role",
  'skip-forks-and-dependabot': 'a pull-request job that assumes a role skips forks and Dependabot',
  'deploy-concurrency': 'a deploy job is in a concurrency group that never cancels it',
  'teardown-concurrency': "a teardown job is in a concurrency group of its own (never a deploy's) that never cancels it",
  'no-expressions-in-run': 'run: blocks hold no ${{ }} expression (values arrive through env)',
  'token-in-step-env': 'the GitHub token reaches only the steps that use it (step env), never a whole job',
  'deploy-after-ci':
    "the production deploy runs when CI completes (workflow_run), never on push: only after a job whose if requires CI's run to have passed for a push to this repository, and every checkout takes the commit CI tested (its head_sha)",
  'required-workflows':
    'CI on pull_request and on push to main, the deploy after CI, preview upload on pull_request, teardown on close, rollback on workflow_dispatch',
  'main-by-full-name':
    'a script names the branch main in full (refs/remotes/origin/main, git/ref/heads/main), never as origin/main or commits/main, which a tag of that name also answers',
  'rollback-approved':
    'a job that assumes the production role on workflow_dispatch runs only after a job in the environment production-rollback (a person approves)',
  'checked-assembly':
    'a job holding the production role deploys through deploy/cli.ts --assembly (which checks the assembly first), never cdk deploy itself',
  'bounded-preview-upload':
    "a job that uploads with the preview role checks the path is its own pull request's (pr-$PR/…), caps the size (MAX_BYTES) and never follows a symbolic link",
} as const;

export type RuleId = keyof typeof RULES;

export interface Violation {
  rule: RuleId;
  file: string;
  where: string;
  message: string;
}

export interface WorkflowFile {
  file: string;
  text: string;
}

/** A node of parsed YAML: its shape is what the rules check, so it is walked untyped. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML of any shape
export type YamlNode = any;

const ALLOWED_SCOPES: Record<string, string> = { contents: 'read', actions: 'read', 'pull-requests': 'write', 'id-token': 'write' };
const ROLE_ACTION = 'aws-actions/configure-aws-credentials';
const PINNED = /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/;
const DEPLOYS = /\bnpm run deploy\b|deploy\/cli\.ts\b|\bcdk deploy\b|\baws s3 (cp|sync)\b/;
const TEARS_DOWN = /\bnpm run destroy\b|\baws s3 rm\b/;
/** A package install: allowed next to a token only with --ignore-scripts (no dependency's install script runs). */
const INSTALL = /\b(?:npm (?:ci|install|i|add|rebuild)|yarn|pnpm|bun)\b[^\n]*/g;
/** Building, synthesizing or testing: what runs dependencies' code over the repository's, done before the token. */
const BUILDS =
  /\bnpm (?:run (?:build|synth|deploy|test|start)|test|start)\b|\bcdk synth\b|\bvitest\b|\breact-router build\b|\bvite build\b|synth\/cli\.ts\b|\.ci\/run\b/;
const TOKEN = /\$\{\{\s*(github\.token|secrets\.GITHUB_TOKEN)\s*\}\}/;

const isMap = (value: unknown): value is Record<string, YamlNode> => typeof value === 'object' && value !== null && !Array.isArray(value);
const usesOf = (step: YamlNode): string => (typeof step?.uses === 'string' ? step.uses : '');
const isAction = (step: YamlNode, name: string) => usesOf(step).split('@')[0] === name;

/** The events a workflow runs on, whatever form `on:` takes (string, list or map). */
export function triggers(doc: YamlNode): Record<string, YamlNode> {
  const on = doc?.on ?? doc?.true; // YAML 1.1 readers turn a bare `on` into true
  if (typeof on === 'string') return { [on]: null };
  if (Array.isArray(on)) return Object.fromEntries(on.map((event: string) => [event, null]));
  return isMap(on) ? on : {};
}

interface JobFacts {
  id: string;
  job: YamlNode;
  steps: YamlNode[];
  runs: string;
  roles: YamlNode[];
  concurrency?: { group: string; cancel: unknown };
  environment?: { name?: string; url?: string };
}

function factsOf(doc: YamlNode, id: string, job: YamlNode): JobFacts {
  const steps: YamlNode[] = Array.isArray(job?.steps) ? job.steps : [];
  const concurrency = job?.concurrency ?? doc?.concurrency;
  const environment =
    typeof job?.environment === 'string' ? { name: job.environment } : isMap(job?.environment) ? job.environment : undefined;
  return {
    id,
    job,
    steps,
    runs: steps.map((s) => (typeof s?.run === 'string' ? s.run : '')).join('\n'),
    roles: steps.filter((s) => isAction(s, ROLE_ACTION)),
    concurrency:
      typeof concurrency === 'string'
        ? { group: concurrency, cancel: undefined }
        : isMap(concurrency)
          ? { group: String(concurrency.group ?? ''), cancel: concurrency['cancel-in-progress'] }
          : undefined,
    environment,
  };
}

/** Every broken rule in these workflow files (all of them at once, so the required set can be judged). */
export function checkWorkflows(files: readonly WorkflowFile[]): Violation[] {
  const violations: Violation[] = [];
  const groups: JobGroups = { deploy: [], teardown: [] };
  const found: FoundWorkflows = { ci: false, deployAfterCi: false, pullRequest: false, teardown: false, rollback: false };

  for (const { file, text } of files) {
    const doc = parse(text) as YamlNode;
    const add = (rule: RuleId, where: string, message: string) => violations.push({ rule, file, where, message });
    const on = triggers(doc);
    if ('pull_request_target' in on) add('no-pull-request-target', 'on', 'runs on pull_request_target');
    if (!isMap(doc?.permissions) || Object.keys(doc.permissions).length > 0) {
      add('top-level-permissions', 'permissions', `is ${JSON.stringify(doc?.permissions ?? null)}, not {}`);
    }
    if (isMap(doc?.env)) {
      for (const [name, value] of Object.entries(doc.env)) {
        if (TOKEN.test(String(value))) add('token-in-step-env', `env.${name}`, 'the whole workflow gets the GitHub token');
      }
    }
    if (doc?.name === CI_NAME && 'pull_request' in on && pushesMain(on)) found.ci = true;
    if (checkDeployAfterCi(doc, on, (where, message) => add('deploy-after-ci', where, message))) found.deployAfterCi = true;
    for (const [id, job] of Object.entries<YamlNode>(isMap(doc?.jobs) ? doc.jobs : {})) {
      checkJob({ file, doc, on, id, job }, add, groups, found);
    }
  }

  for (const teardown of groups.teardown) {
    const clash = groups.deploy.find((d) => d.group === teardown.group || sameShape(d.group, teardown.group));
    if (clash) {
      violations.push({
        rule: 'teardown-concurrency',
        file: teardown.file,
        where: `jobs.${teardown.job}.concurrency`,
        message: `shares the group "${teardown.group}" with the deploy job ${clash.file} jobs.${clash.job}`,
      });
    }
  }
  const missing = Object.entries(found)
    .filter(([, present]) => !present)
    .map(([what]) => what);
  if (missing.length > 0) {
    violations.push({ rule: 'required-workflows', file: '.github/workflows', where: '', message: `missing: ${missing.join(', ')}` });
  }
  return violations;
}

/** The concurrency groups of the jobs that deploy and of those that tear down, across the files. */
interface JobGroups {
  deploy: { file: string; job: string; group: string }[];
  teardown: { file: string; job: string; group: string }[];
}
/** The workflows the repository must have, each set once a job shows it. */
type FoundWorkflows = Record<'ci' | 'deployAfterCi' | 'pullRequest' | 'teardown' | 'rollback', boolean>;

/** One job's rules. */
function checkJob(
  { file, doc, on, id, job }: { file: string; doc: YamlNode; on: Record<string, YamlNode>; id: string; job: YamlNode },
  add: (rule: RuleId, where: string, message: string) => void,
  groups: JobGroups,
  found: FoundWorkflows,
): void {
  const pullRequestWorkflow = 'pull_request' in on || 'pull_request_target' in on;
  const facts = factsOf(doc, id, job);
  const at = `jobs.${id}`;
  // Permissions: declared per job, from the least set.
  const permissions = job?.permissions;
  if (!isMap(permissions))
    add('job-permissions', `${at}.permissions`, `is ${JSON.stringify(permissions ?? null)}: name each scope the job needs`);
  else {
    for (const [scope, level] of Object.entries(permissions)) {
      if (ALLOWED_SCOPES[scope] === undefined || (level !== ALLOWED_SCOPES[scope] && level !== 'read' && level !== 'none')) {
        add('job-permissions', `${at}.permissions.${scope}`, `${scope}: ${String(level)} is more than the least set allows`);
      }
    }
  }
  const idToken = isMap(permissions) && permissions['id-token'] === 'write';
  if (idToken !== facts.roles.length > 0) {
    add('id-token-only-with-role', at, idToken ? 'asks for id-token: write but assumes no role' : 'assumes a role without id-token: write');
  }
  // Pinning: steps and remote reusable workflows.
  const remoteUses = [...facts.steps.map(usesOf), typeof job?.uses === 'string' ? job.uses : ''].filter(
    (uses) => uses && !uses.startsWith('./') && !uses.startsWith('docker://'),
  );
  for (const uses of remoteUses) if (!PINNED.test(uses)) add('pinned-by-sha', at, `${uses} is not pinned by a full commit SHA`);
  for (const step of facts.steps.filter((s) => isAction(s, 'actions/checkout'))) {
    if (step?.with?.['persist-credentials'] !== false) add('persist-credentials', at, 'actions/checkout keeps the token in .git/config');
  }
  // Roles: from variables, account pinned, matched to the subject the trust policy expects.
  for (const step of facts.roles) {
    const role = String(step?.with?.['role-to-assume'] ?? '');
    if (
      !/^\$\{\{\s*vars\.AWS_(PRODUCTION|PREVIEW)_ROLE_ARN\s*\}\}$/.test(role) ||
      !/^\$\{\{\s*vars\.AWS_ACCOUNT_ID\s*\}\}$/.test(String(step?.with?.['allowed-account-ids'] ?? ''))
    ) {
      add(
        'allowed-account-ids',
        at,
        'role-to-assume must be vars.AWS_PRODUCTION_ROLE_ARN or vars.AWS_PREVIEW_ROLE_ARN, allowed-account-ids vars.AWS_ACCOUNT_ID',
      );
    }
    const environment = facts.environment?.name;
    if (/PRODUCTION/.test(role) && (environment !== undefined || pullRequestWorkflow)) {
      add(
        'role-matches-subject',
        at,
        "the production role trusts main's ref: no environment (its subject would be environment:NAME) and no pull_request trigger",
      );
    }
    if (/PREVIEW/.test(role) && (environment !== undefined || !pullRequestWorkflow)) {
      add('role-matches-subject', at, 'the preview role trusts the pull_request subject only: no environment, and only on pull_request');
    }
    if (pullRequestWorkflow) {
      const condition = String(job?.if ?? '');
      if (
        !condition.includes('github.event.pull_request.head.repo.full_name == github.repository') ||
        !condition.includes("'dependabot[bot]'")
      ) {
        add('skip-forks-and-dependabot', `${at}.if`, 'must skip pull requests from forks and from dependabot[bot]');
      }
    }
  }
  if (idToken) checkNothingRunsNextToToken(facts, pullRequestWorkflow, (rule, message) => add(rule, at, message));
  // Concurrency: deploys never cancelled; teardown in groups of its own.
  const deploys = DEPLOYS.test(facts.runs);
  const tearsDown = TEARS_DOWN.test(facts.runs);
  if (deploys) {
    if (!facts.concurrency?.group || facts.concurrency.cancel !== false) {
      add('deploy-concurrency', at, 'deploys outside a concurrency group with cancel-in-progress: false');
    } else groups.deploy.push({ file, job: id, group: facts.concurrency.group });
  }
  if (tearsDown) {
    if (!facts.concurrency?.group || facts.concurrency.cancel !== false) {
      add('teardown-concurrency', at, 'tears down outside a concurrency group with cancel-in-progress: false');
    } else groups.teardown.push({ file, job: id, group: facts.concurrency.group });
  }
  // Shell: no expressions; the token only where a step uses it.
  facts.steps.forEach((step, i) => {
    if (typeof step?.run === 'string' && step.run.includes('${{'))
      add('no-expressions-in-run', `${at}.steps[${i}]`, 'an expression inside run:');
  });
  if (isMap(job?.env)) {
    for (const [name, value] of Object.entries(job.env)) {
      if (TOKEN.test(String(value))) add('token-in-step-env', `${at}.env.${name}`, 'every step of the job gets the GitHub token');
    }
  }
  checkMainByFullName(facts, (message) => add('main-by-full-name', at, message));
  if (facts.roles.some(isProductionRole)) checkProductionJob(doc, on, facts, (rule, message) => add(rule, at, message));
  if (facts.roles.some(isPreviewRole) && /\baws s3 (cp|sync)\b/.test(facts.runs))
    checkPreviewUpload(facts, (message) => add('bounded-preview-upload', at, message));
  // What exists.
  if (deploys && 'pull_request' in on && idToken) found.pullRequest = true;
  if (tearsDown && 'pull_request' in on && String(job?.if ?? '').includes("github.event.action == 'closed'")) found.teardown = true;
  if (deploys && 'workflow_dispatch' in on && !('push' in on)) found.rollback = true;
}

/** The name of the test workflow (ci.yml) the deploy waits for. */
const CI_NAME = 'CI';
/**
 * What the gate before a production deploy requires of CI's run: passed, for a push, in this
 * repository, and ci.yml's own (any workflow may call itself CI).
 */
const CI_PASSED = [
  "github.event.workflow_run.conclusion == 'success'",
  "github.event.workflow_run.event == 'push'",
  "(github.event.workflow_run.path == '.github/workflows/ci.yml' || startsWith(github.event.workflow_run.path, '.github/workflows/ci.yml@'))",
  'github.event.workflow_run.head_repository.full_name == github.repository',
];
/** The environment whose required reviewer approves a rollback (npm run github-setup makes it). */
export const ROLLBACK_ENVIRONMENT = 'production-rollback';

const isProductionRole = (step: YamlNode) => /PRODUCTION/.test(String(step?.with?.['role-to-assume'] ?? ''));
const isPreviewRole = (step: YamlNode) => /PREVIEW/.test(String(step?.with?.['role-to-assume'] ?? ''));

/** The preview role writes any pr-* key: the upload itself keeps to its own prefix, a size, and real files. */
function checkPreviewUpload(facts: JobFacts, add: (message: string) => void): void {
  if (!/\^pr-\$\{PR\}\//.test(facts.runs)) add("uploads without checking the path is pr-$PR/…, its own pull request's");
  if (!/\bdu -sb\b/.test(facts.runs) || !/-gt "\$MAX_BYTES"/.test(facts.runs)) add('uploads without a size cap (du -sb against MAX_BYTES)');
  for (const [copy] of facts.runs.matchAll(/\baws s3 (?:cp|sync)\b[^\n]*/g)) {
    if (!/--no-follow-symlinks\b/.test(copy)) add(`"${copy.trim()}" follows symbolic links (to the runner's own files)`);
  }
}

/** main as a name a tag can take: origin/main not written as refs/remotes/origin/main, or the API's commits/main. */
const MAIN_BY_SHORT_NAME = /(?<!refs\/remotes\/)\borigin\/main\b|\bcommits\/main\b/;

function checkMainByFullName(facts: JobFacts, add: (message: string) => void): void {
  const found = MAIN_BY_SHORT_NAME.exec(facts.runs);
  if (found) add(`names main as "${found[0]}", which a tag of that name answers too`);
}

/** A job holding the production role deploys a checked assembly, and by hand only once a person approved. */
function checkProductionJob(
  doc: YamlNode,
  on: Record<string, YamlNode>,
  facts: JobFacts,
  add: (rule: RuleId, message: string) => void,
): void {
  // A deploy without --assembly is no-install-with-token's to refuse (it would synthesize here).
  if (/\bcdk deploy\b/.test(facts.runs)) {
    add('checked-assembly', 'deploys without deploy/cli.ts --assembly, so no check of the assembly runs before the role is used');
  }
  if ('workflow_dispatch' in on && !needsEnvironment(doc, facts.id, ROLLBACK_ENVIRONMENT)) {
    add('rollback-approved', `assumes the production role by hand without waiting for a job in the environment ${ROLLBACK_ENVIRONMENT}`);
  }
}

/** The jobs a job needs (`needs:` as a name or a list). */
const needsOf = (job: YamlNode): string[] => (typeof job.needs === 'string' ? [job.needs] : Array.isArray(job.needs) ? job.needs : []);

/** Whether a job, or a job it needs however far back, runs in the environment. */
function needsEnvironment(doc: YamlNode, id: string, environment: string, seen = new Set<string>()): boolean {
  const jobs: Record<string, YamlNode> = isMap(doc?.jobs) ? doc.jobs : {};
  if (seen.has(id) || !jobs[id]) return false;
  seen.add(id);
  if (factsOf(doc, id, jobs[id]).environment?.name === environment) return true;
  return needsOf(jobs[id]).some((need) => needsEnvironment(doc, need, environment, seen));
}
const TESTED_COMMIT = /^\$\{\{\s*github\.event\.workflow_run\.head_sha\s*\}\}$/;

const pushesMain = (on: Record<string, YamlNode>) => isMap(on.push) && Array.isArray(on.push.branches) && on.push.branches.includes('main');

/**
 * A workflow whose jobs assume the production role (rollback.yml aside: run by hand, it deploys a commit
 * that passed CI when it was main's head) deploys on CI's completion and only after CI passed: it reuses
 * CI's result for the commit instead of testing again, so nothing else may stand for that result.
 * Returns whether the workflow is such a deploy.
 */
function checkDeployAfterCi(doc: YamlNode, on: Record<string, YamlNode>, add: (where: string, message: string) => void): boolean {
  const jobs: Record<string, YamlNode> = isMap(doc?.jobs) ? doc.jobs : {};
  const production = Object.keys(jobs).filter((id) => factsOf(doc, id, jobs[id]).roles.some(isProductionRole));
  // A production role on a pull request is role-matches-subject's to refuse.
  if (production.length === 0 || 'pull_request' in on || ('workflow_dispatch' in on && !('push' in on) && !('workflow_run' in on)))
    return false;
  const run = isMap(on.workflow_run) ? on.workflow_run : {};
  const listed = (key: string, value: string) => Array.isArray(run[key]) && run[key].includes(value);
  if (!listed('workflows', CI_NAME) || !listed('types', 'completed') || !listed('branches', 'main') || 'push' in on) {
    add('on', `deploys on ${Object.keys(on).join(', ')}: run on workflow_run of ${CI_NAME} (types: [completed], branches: [main]) alone`);
  }
  /** The conditions of a job and of every job it needs, however far back. */
  const conditions = (id: string, seen = new Set<string>()): string => {
    if (seen.has(id) || !jobs[id]) return '';
    seen.add(id);
    return [String(jobs[id].if ?? ''), ...needsOf(jobs[id]).map((need) => conditions(need, seen))].join('\n');
  };
  for (const id of production) {
    const missing = CI_PASSED.filter((condition) => !conditions(id).includes(condition));
    if (missing.length > 0) add(`jobs.${id}`, `deploys without a job before it requiring ${missing.join(' and ')}`);
  }
  for (const [id, job] of Object.entries(jobs)) {
    for (const step of factsOf(doc, id, job).steps.filter((s) => isAction(s, 'actions/checkout'))) {
      if (!TESTED_COMMIT.test(String(step?.with?.ref ?? '')))
        add(`jobs.${id}`, 'checks out another commit than the one CI tested: ref: ${{ github.event.workflow_run.head_sha }}');
    }
  }
  return true;
}

/**
 * A job holding an OIDC token runs no dependency's install script, builds nothing (a build runs every
 * build plugin's code), and in a pull-request workflow checks out nothing of the branch.
 */
function checkNothingRunsNextToToken(facts: JobFacts, pullRequestWorkflow: boolean, add: (rule: RuleId, message: string) => void): void {
  for (const [install] of facts.runs.matchAll(INSTALL)) {
    if (!/--ignore-scripts\b/.test(install)) add('no-install-with-token', `"${install.trim()}" runs install scripts where the token is`);
  }
  const build = BUILDS.exec(facts.runs);
  if (build)
    add(
      'no-install-with-token',
      `"${build[0]}" builds or tests where the token is: do it in a job without id-token and pass the result on as an artifact`,
    );
  for (const [deploy] of facts.runs.matchAll(/\bcdk deploy\b[^\n]*|deploy\/cli\.ts\b[^\n]*/g)) {
    if (!/--(?:app|assembly)\s+\S/.test(deploy))
      add(
        'no-install-with-token',
        `"${deploy.trim()}" synthesizes (builds) before it deploys: deploy a built assembly (--app / --assembly)`,
      );
  }
  if (pullRequestWorkflow && facts.steps.some((s) => isAction(s, 'actions/checkout'))) {
    add('no-branch-code-with-token', 'checks out the branch where the token is');
  }
}

/** Two groups that differ only in an expression's text still collide when it evaluates alike. */
function sameShape(a: string, b: string): boolean {
  const shape = (group: string) => group.replace(/\$\{\{[^}]*\}\}/g, '*');
  return shape(a) === shape(b);
}

/** The run: blocks of workflow files, for shellcheck. */
export function runBlocks(file: WorkflowFile): { where: string; script: string; shell: string }[] {
  const doc = parse(file.text) as YamlNode;
  const blocks: { where: string; script: string; shell: string }[] = [];
  for (const [id, job] of Object.entries(isMap(doc?.jobs) ? doc.jobs : {})) {
    const steps: YamlNode[] = Array.isArray((job as YamlNode)?.steps) ? (job as YamlNode).steps : [];
    steps.forEach((step, i) => {
      if (typeof step?.run === 'string') {
        blocks.push({
          where: `${file.file} jobs.${id}.steps[${i}]`,
          script: step.run,
          shell: String(step.shell ?? (job as YamlNode)?.defaults?.run?.shell ?? 'bash'),
        });
      }
    });
  }
  return blocks;
}
