/** Each menu entry links to its lowercase name (/projects, /about, …). */
export const MENU_ENTRIES = ['Projects', 'About', 'Contact', 'Blogs'] as const;
export type MenuEntry = (typeof MENU_ENTRIES)[number];

export function menuPath(entry: MenuEntry): string {
  return `/${entry.toLowerCase()}`;
}
