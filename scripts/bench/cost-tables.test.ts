/** The docs print the cost model's figures: every cost block in README and docs/deploy.md is what the model renders now. */
import { describe, expect, it } from 'vitest';
import { blockIn, COST_BLOCKS, readDoc } from './cost-tables';

describe("the docs' cost figures", () => {
  for (const [name, { file, render }] of Object.entries(COST_BLOCKS)) {
    it(`${file}'s ${name} block is the model's (npm run bench:costs -- --write rewrites it)`, () => {
      expect(blockIn(readDoc(file), name), `${file} has no cost-model:${name} block`).toBe(render());
    });
  }
});
