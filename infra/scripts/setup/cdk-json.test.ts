/** cdk.json edits: only the changed keys' text moves; the block is validated first; the diff names each key. */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CDK_JSON_FILE, ConfigError } from '../../config/portfolio-config';
import { editPortfolioBlock, portfolioBlockHas } from './cdk-json';
import { scratchDir } from '../../../tools/scratch';

const FILE = `{
  "app": "node --import tsx infra/bin/portfolio.ts",
  "context": {
    "portfolio": {
      "stackName": "Portfolio",
      "region": "us-east-1",
      "ownerEmail": "owner@example.com",
      "senderEmail":   "portfolio@example.com",
      "recaptchaSecretParameter": "/portfolio/recaptcha-secret",
      "domain": null
    },
    "@aws-cdk/core:someFlag": true,
    "anUnknownKey": { "kept": [1, 2, "three"] }
  }
}
`;

describe('editPortfolioBlock', () => {
  it('replaces values in place and keeps everything else byte for byte', () => {
    const edit = editPortfolioBlock(FILE, { ownerEmail: 'jane@jane.dev', senderEmail: 'hello@jane.dev' });
    expect(edit.text).toBe(FILE.replace('"owner@example.com"', '"jane@jane.dev"').replace('"portfolio@example.com"', '"hello@jane.dev"'));
    expect(edit.diff).toEqual([
      '- "ownerEmail": "owner@example.com"',
      '+ "ownerEmail": "jane@jane.dev"',
      '- "senderEmail": "portfolio@example.com"',
      '+ "senderEmail": "hello@jane.dev"',
    ]);
    expect(edit.config.ownerEmail).toBe('jane@jane.dev');
  });

  it('adds a missing key after the last one, indented like its neighbours; nested values too', () => {
    const edit = editPortfolioBlock(FILE, {
      recaptchaSiteKey: 'a-real-looking-site-key-0123456789',
      domain: { domainName: 'www.jane.dev', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'jane.dev' },
    });
    expect(edit.text).toContain(
      '      "domain": {\n        "domainName": "www.jane.dev",\n        "hostedZoneId": "Z0123456789ABCDEFGHIJ",\n        "hostedZoneName": "jane.dev"\n      },\n      "recaptchaSiteKey": "a-real-looking-site-key-0123456789"\n    },\n    "@aws-cdk/core:someFlag"',
    );
    expect(JSON.parse(edit.text).context.anUnknownKey).toEqual({ kept: [1, 2, 'three'] });
  });

  it('removes a key with its separator', () => {
    const withIdentity = FILE.replace('"domain": null', '"senderIdentity": "example.com",\n      "domain": null');
    const edit = editPortfolioBlock(withIdentity, { senderIdentity: undefined });
    expect(edit.text).toBe(FILE);
    expect(edit.diff).toEqual(['- "senderIdentity": "example.com"']);
  });

  it('refuses an answer the configuration refuses, naming the key, and changes nothing', () => {
    expect(() => editPortfolioBlock(FILE, { ownerEmail: 'not-an-address' })).toThrow(ConfigError);
    expect(() => editPortfolioBlock(FILE, { ownerEmail: 'not-an-address' })).toThrow(
      /portfolio\.ownerEmail: "not-an-address" is not an e-mail address/,
    );
  });

  it('an unchanged value is no change', () => {
    const edit = editPortfolioBlock(FILE, { region: 'us-east-1' });
    expect(edit.diff).toEqual([]);
    expect(edit.text).toBe(FILE);
  });

  it('tells an absent key ("not asked yet") from a null or false one ("asked, declined")', () => {
    const file = path.join(scratchDir('cdk-json-has-'), 'cdk.json');
    writeFileSync(file, FILE);
    expect(portfolioBlockHas('domain', file)).toBe(true);
    expect(portfolioBlockHas('sesProductionAccess', file)).toBe(false);
  });

  it('ships cdk.json with the once-asked answers open, so the first npm run setup in a terminal asks them', () => {
    expect(portfolioBlockHas('domain', CDK_JSON_FILE)).toBe(false);
    expect(portfolioBlockHas('sesProductionAccess', CDK_JSON_FILE)).toBe(false);
  });
});
