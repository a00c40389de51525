/**
 * The site with the fixture posts (web/test/fixtures/posts): the shipped content has no post, so the
 * browser tests of posts serve a copy of the project built with them (made once per change of the
 * site, shared with scripts/posts-build.test.ts and the right-to-left tests: tools/locale-copy.ts
 * fixtureSiteBuild), behind a local
 * stack of its own.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fixtureSiteBuild } from '../../tools/locale-copy';
import { REPO } from '../../tools/project-copy';

export interface PostSite {
  /** e.g. http://127.0.0.1:43123 (no trailing slash). */
  origin: string;
  stop(): Promise<void>;
}

/** The title of the fixture's post in both languages, and a word only its text holds (in no script). */
export const FIXTURE_POST = {
  path: '/blogs/every-feature',
  title: 'Writing on the Site Itself',
  spanishTitle: 'Escribir en el propio sitio',
  marker: 'FIXTUREMARKER-PROSE',
  /** Its Spanish text begins with these words. */
  spanishText: 'Cada palabra de este artículo',
} as const;

/**
 * Builds (or reuses) the fixture site and serves it; throws with the build's output if it fails.
 * `pageViewsFile`: where the stack keeps the page views it accepts (as `npm start` does), if anywhere.
 */
export async function startPostSite(options: { pageViewsFile?: string } = {}): Promise<PostSite> {
  const built = await fixtureSiteBuild();
  const stack = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'e2e/support/local-stack-process.ts')], {
    env: {
      ...process.env,
      E2E_CLIENT_DIR: path.join(built.dir, 'web/build/client'),
      // None unless asked: never the page views file of the stack the other browser tests share.
      E2E_PAGE_VIEWS_FILE: options.pageViewsFile ?? '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (stack.exitCode !== null || stack.signalCode !== null) return;
    stack.kill('SIGTERM');
    await once(stack, 'exit');
  };
  for await (const line of createInterface({ input: stack.stdout })) {
    stack.stdout.resume(); // whatever it prints later must not fill the pipe and block it
    return { origin: (JSON.parse(line) as { url: string }).url.replace(/\/+$/, ''), stop };
  }
  await stop();
  throw new Error('The local stack for the fixture posts printed nothing.');
}
