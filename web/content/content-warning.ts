/**
 * The start of each content warning the build prints (web/content/check.ts), which `npm start`
 * repeats (scripts/quiet-build.ts). Its own module: the build script must not load the content itself.
 */
export const CONTENT_WARNING = 'Content warning:';
