// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { escapeHtml, pageTexts, policyHtml } from './page-texts.server';

describe('page texts for the prerender', () => {
  it('escapes what could start markup or end an attribute', () => {
    expect(escapeHtml(`<script>"a" & 'b'</script>`)).toBe('&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;');
  });

  it('writes the policy as the page shows it: heading, paragraphs, list', () => {
    const html = policyHtml({
      lastUpdated: '2024-09-27',
      sections: [
        { heading: 'A & B', paragraphs: ['One <b>', 'Two'], list: ['x'] },
        { heading: 'C', paragraphs: ['Three'] },
      ],
    });
    expect(html).toBe(
      '<section><h2>A &amp; B</h2><p>One &lt;b&gt;</p><p>Two</p><ul><li>x</li></ul></section><section><h2>C</h2><p>Three</p></section>',
    );
  });

  it("has every language's project texts and policy, the policy written with the given facts", async () => {
    const texts = await pageTexts({ messageRetentionDays: 7, logRetentionDays: 30 });
    expect(texts.get('en/projects/1/problem')).toBeTruthy();
    expect(texts.get('es/projects/5/solution')).toBeTruthy();
    expect(texts.get('en/privacy-policy')).toContain('for 7 days');
  });
});
