/** The build's search modules (scripts/search-index.ts): one per language, and the map of their loaders. */
declare module 'virtual:search-indexes' {
  export const searchModules: Record<string, (() => Promise<{ index: string }>) | undefined>;
}
