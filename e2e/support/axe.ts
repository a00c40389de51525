import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * Every axe rule that is not experimental (WCAG 2.x A/AA plus axe's best practices), and the
 * experimental label-in-name check (WCAG 2.5.3, level A: a control's accessible name contains its
 * visible text). One line per violation with up to five of its elements; empty when the page passes.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Judge the settled page: mid-way through an entrance animation, text is partly transparent
  // and its contrast is not what a reader sees once it is there.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  // Legacy mode runs axe.run() in the page itself. The default runs each frame apart and joins the
  // results in a new blank page per check: a third more of the run's CPU, for frames of other origins
  // (Google's captcha) that are not ours to fix.
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n` +
      v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`)
        .join('\n'),
  );
}
