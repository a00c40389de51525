/**
 * A pull request's preview path, `pr-12/abc1234`: its key prefix in the preview bucket and its base
 * path on the preview distribution. One rule for everything that reads it: the build (PREVIEW_PATH
 * sets React Router's basename and Vite's base), the preview distribution's function, the workflow's
 * upload and the local stand-in. Plain TypeScript with no imports: the build and the stack both read it.
 */

/** Every preview's keys start with this: the preview role's whole reach in the preview bucket. */
export const PREVIEW_KEY_PREFIX = 'pr-';

/** pr-N/<7 hex>: N from 1 to 9,999,999, the commit's short SHA in lower case. */
export const PREVIEW_PATH_PATTERN = /^pr-[1-9][0-9]{0,6}\/[0-9a-f]{7}$/;

/** A preview's path for pull request 12 at commit abc1234…: `pr-12/abc1234`. */
export function previewPath(pullRequest: number, sha: string): string {
  if (!Number.isInteger(pullRequest) || pullRequest < 1 || pullRequest > 9_999_999)
    throw new Error(`"${pullRequest}" is not a pull request number`);
  if (!/^[0-9a-f]{7,40}$/.test(sha)) throw new Error(`"${sha}" is not a commit SHA (7 to 40 hex digits)`);
  return `${PREVIEW_KEY_PREFIX}${pullRequest}/${sha.slice(0, 7)}`;
}

/**
 * The site's base path from the build variable PREVIEW_PATH: '' for the live site (unset or blank),
 * `/pr-12/abc1234` for a preview. Anything else stops the build: a wrong base would put every link
 * and asset of the preview outside its prefix.
 */
export function basePathOf(previewPathVariable: string | undefined): string {
  const value = (previewPathVariable ?? '').trim();
  if (value === '') return '';
  if (!PREVIEW_PATH_PATTERN.test(value)) {
    throw new Error(`PREVIEW_PATH must be pr-N/<7 hex digits of the commit> (e.g. pr-12/abc1234), got "${value}".`);
  }
  return `/${value}`;
}
