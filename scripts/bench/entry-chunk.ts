/** What the bench scripts read from the built entry chunk's minified code. */

/** A minified identifier (letters, digits, `_`, `$`). */
const ID = String.raw`[\w$]+`;
const escape = (name: string) => name.replace(/\$/g, '\\$');

/**
 * The vendor chunk, and the names under which it exports React's and react-dom/client's initialisers,
 * read from the entry chunk (React Router's default client entry, minified:
 * `import{b as t,…,v as i}from"./vendor-….js";var a=e(t()),o=i();…(0,a.StrictMode)…(0,o.hydrateRoot)`).
 * Throws when the bundler writes them some other way.
 */
export function findInitialisers(entry: string): { vendor: string; react: string; reactDomClient: string } {
  const imports = new RegExp(String.raw`import\{([^}]*)\}from"\./(vendor-[\w-]+\.js)"`).exec(entry);
  const exportNamed = (local: string) =>
    imports?.[1]!
      .split(',')
      .map((item) => item.trim().split(/\s+as\s+/))
      .find((parts) => (parts[1] ?? parts[0]) === local)?.[0];
  // `ns.member` (or `(0,ns.member)`), then `ns=init()` or `ns=interop(init())`, then init's export name.
  const initialiserOf = (member: string) => {
    const namespace = new RegExp(String.raw`(?:^|[^\w$])(${ID})\.${member}\b`).exec(entry)?.[1];
    const init = namespace && new RegExp(String.raw`(?:^|[^\w$])${escape(namespace)}=(?:${ID}\()?(${ID})\(\)`).exec(entry)?.[1];
    return init ? exportNamed(init) : undefined;
  };
  const react = initialiserOf('StrictMode');
  const reactDomClient = initialiserOf('hydrateRoot');
  if (!imports || !react || !reactDomClient) {
    throw new Error(
      "Cannot find React's and react-dom/client's initialisers in the entry chunk: the bundler writes them differently now; update findInitialisers.",
    );
  }
  return { vendor: imports[2]!, react, reactDomClient };
}
