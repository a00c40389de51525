import type { Project } from './types';

/** The project whose id equals the URL parameter, or undefined (the page then goes to /error). */
export function findProjectIn(projects: readonly Project[], param: string | undefined): Project | undefined {
  // Only a plain positive integer is an id: "3" matches, "3abc", "03" or "3.0" do not.
  if (param === undefined || !/^[1-9]\d*$/.test(param)) return undefined;
  const id = Number(param);
  return projects.find((p) => p.id === id);
}
