/** The HTML conformance check itself: a valid page passes, and each kind of broken page fails, naming the rule. */
import { describe, expect, it } from 'vitest';
import { htmlErrors } from './html-conformance';

/** A small page written the way React and the post-build step write them. */
function page(head: string, body: string): string {
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Alex Example</title>' + `${head}</head><body>${body}</body></html>`
  );
}

const VALID_BODY =
  '<main><h1>Contact</h1><form><label for="email">Email</label><input id="email" name="email" type="email" required=""/>' +
  '<button type="submit" disabled="">Send</button></form></main>';

describe('htmlErrors', () => {
  it('passes a valid page, including module preloads held in a template and empty script placeholders', async () => {
    const head =
      '<template data-deferred-preloads><link rel="modulepreload" href="/assets/entry.client-A1.js"/></template>' +
      '<link rel="stylesheet" href="/assets/app.css" disabled=""/><style>body{margin:0}</style>';
    const body = `${VALID_BODY}<script data-src="/assets/inline-a.js"></script><script type="module" async="" data-src="/assets/inline-b.js"></script>`;
    expect(await htmlErrors(page(head, body), 'ok.html')).toEqual([]);
  });

  it.each([
    [
      'a link with neither rel nor href (the old deferred preload)',
      page('<link data-modulepreload="/assets/a.js"/>', VALID_BODY),
      'element-required-attributes',
    ],
    ['a duplicate id', page('', `${VALID_BODY}<p id="email">again</p>`), 'no-dup-id'],
    [
      'a button inside a link',
      page('', `${VALID_BODY}<a href="/home"><button type="button">Home</button></a>`),
      'element-permitted-content',
    ],
    ['a label for a field that does not exist', page('', `${VALID_BODY}<label for="phone">Phone</label>`), 'no-missing-references'],
    ['an unknown element', page('', `${VALID_BODY}<blink>new</blink>`), 'deprecated'],
    ['no doctype', page('', VALID_BODY).replace('<!DOCTYPE html>', ''), 'missing-doctype'],
    ['a list item outside a list', page('', `${VALID_BODY}<li>stray</li>`), 'element-permitted-content'],
    ['a skipped heading level', page('', `${VALID_BODY}<h3>Details</h3>`), 'heading-level'],
    ['a field without a label', page('', `${VALID_BODY}<input name="phone" type="tel"/>`), 'input-missing-label'],
  ])('fails a page with %s', async (_what, html, rule) => {
    const errors = await htmlErrors(html, 'broken.html');
    expect(errors.length, errors.join('\n')).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(new RegExp(`^broken\\.html:\\d+:\\d+ ${rule}: `, 'm'));
  });
});
