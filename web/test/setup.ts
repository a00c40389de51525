import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // A file that needs no DOM runs in Node (its `@vitest-environment node` line): no storage to clear.
  if (typeof window !== 'undefined') localStorage.clear();
});
