/** The address `npm run deploy` just deployed, read from the CDK outputs file, for the smoke check. */
import { readFileSync } from 'node:fs';

/**
 * The SiteUrl output of the deployed stack: the one named `stackName` when present, else the only
 * stack in the file with a SiteUrl. Throws, naming the file, when it cannot tell.
 */
export function deployedSiteUrl(outputsFile: string, stackName: string): string {
  let outputs: Record<string, Record<string, unknown>>;
  try {
    outputs = JSON.parse(readFileSync(outputsFile, 'utf8')) as typeof outputs;
  } catch (error) {
    throw new Error(`cannot read the deploy outputs ${outputsFile} (${(error as Error).message})`, { cause: error });
  }
  const own = outputs[stackName]?.SiteUrl;
  if (typeof own === 'string' && own) return own;
  const urls = Object.values(outputs)
    .map((stack) => stack?.SiteUrl)
    .filter((url): url is string => typeof url === 'string' && url !== '');
  if (urls.length === 1) return urls[0]!;
  throw new Error(`${outputsFile} has ${urls.length === 0 ? 'no' : 'several'} SiteUrl outputs; run \`npm run smoke -- <site URL>\` yourself`);
}
