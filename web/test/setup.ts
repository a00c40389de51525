import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { handle } from '../content/catalogue';
import { setBundleOutsideLayout } from '../app/i18n/locale-context';

// Components rendered on their own (outside a language's layout route) speak the default language.
setBundleOutsideLayout(handle.localeBundle);

afterEach(() => {
  cleanup();
  // A file that needs no DOM runs in Node (its `@vitest-environment node` line): no storage to clear.
  if (typeof window !== 'undefined') localStorage.clear();
});
