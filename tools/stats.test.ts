import { expect, it } from 'vitest';
import { median } from './stats';

it('is the middle value, the mean of the middle two rounded to 1/100, over finite values only', () => {
  expect(median([3, 1, 2])).toBe(2);
  expect(median([12.8, 12.9, 1, 20])).toBe(12.85);
  expect(median([5, Number.NaN, 7, 6])).toBe(6);
  expect(median([Number.NaN])).toBeNaN();
  expect(median([])).toBeNaN();
});
