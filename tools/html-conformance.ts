/**
 * The HTML conformance check the built pages must pass (e2e/html-conformance.test.ts): html-validate
 * with its `html-validate:standard` preset, the rules that follow the HTML standard (content models,
 * required and allowed attributes, ids, nesting), none disabled. Its `recommended` preset adds style
 * rules that contradict what React writes while being valid HTML (self-closed void elements such as
 * `<meta/>`, camel-cased attributes such as `charSet`, boolean attributes written `disabled=""`, ids
 * such as React's `_R_j5_`), so it is not used. Added from `html-validate:document`, for whole pages:
 * a doctype, references (`for`, `aria-*`) that name an existing id, no skipped heading level, and a
 * label for every field. CSS is not checked here (html-validate reads no style sheet).
 */
import { HtmlValidate, type ConfigData } from 'html-validate';

export const HTML_CONFORMANCE_CONFIG: ConfigData = {
  extends: ['html-validate:standard'],
  rules: {
    'missing-doctype': 'error',
    'no-missing-references': 'error',
    'heading-level': 'error',
    'input-missing-label': 'error',
  },
};

const validator = new HtmlValidate(HTML_CONFORMANCE_CONFIG);

/** Every error in one document, as "name:line:column rule: message"; empty when it conforms. */
export async function htmlErrors(html: string, name: string): Promise<string[]> {
  const report = await validator.validateString(html, name);
  return report.results.flatMap((result) =>
    result.messages
      .filter((message) => message.severity === 2)
      .map((message) => `${name}:${message.line}:${message.column} ${message.ruleId}: ${message.message}`),
  );
}
