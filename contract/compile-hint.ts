/**
 * V8's per-file explicit compile hint: as the first line of a script, it makes Chrome (136 and later)
 * compile every function in the file eagerly, on the background thread that streams it; other
 * engines read a comment. Added by scripts/postbuild.ts, after minification, since the minifier drops comments.
 * Source: the V8 team's explainer, https://github.com/WICG/explicit-javascript-compile-hints-file-based
 * ("//# allFunctionsCalledOnLoad", per-file hints enabled by default in Chromium-based browsers), and
 * v8.dev's "Giving V8 a heads-up: faster JavaScript startup with explicit compile hints" (Chrome 136).
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
