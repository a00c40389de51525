import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_CLIENT_DIR } from '../../infra/shared/build-output';
import { findInitialisers } from './entry-chunk';

describe("React's and react-dom/client's initialisers in the entry chunk", () => {
  it('are read from the import list and the calls the entry makes, aliased or not, with $ in names', () => {
    const entry =
      'import{n as e}from"./rolldown-runtime-W.js";import{b as t,n,t as r,v as i}from"./vendor-C-eTwI_a.js";' +
      'var a=e(t()),o=i(),s=r();(0,a.startTransition)(()=>{(0,o.hydrateRoot)(document,(0,s.jsx)(a.StrictMode,{children:(0,s.jsx)(n,{})}))});';
    expect(findInitialisers(entry)).toEqual({ vendor: 'vendor-C-eTwI_a.js', react: 'b', reactDomClient: 'v' });
    const dollars = 'import{a$ as $t,q}from"./vendor-X1.js";var $a=$t(),b$=q();$a.StrictMode;b$.hydrateRoot(document,null);';
    expect(findInitialisers(dollars)).toEqual({ vendor: 'vendor-X1.js', react: 'a$', reactDomClient: 'q' });
  });

  it('are refused, saying so, when the entry is written another way', () => {
    expect(() => findInitialisers('import{hydrateRoot}from"react-dom/client";hydrateRoot(document,null)')).toThrow(
      /update findInitialisers/,
    );
  });

  it('are found in the build the tests run against', () => {
    const assets = path.join(WEB_CLIENT_DIR, 'assets');
    const entry = readdirSync(assets).find((name) => /^entry\.client-[\w-]+\.js$/.test(name))!;
    const found = findInitialisers(readFileSync(path.join(assets, entry), 'utf8'));
    const vendor = readFileSync(path.join(assets, found.vendor), 'utf8');
    expect(vendor).toMatch(new RegExp(String.raw`export\{[^}]*\b${found.reactDomClient.replace(/\$/g, '\\$')}\b`));
  });
});
