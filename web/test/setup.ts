import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { handle } from '../content/catalogue';
import { setBundleOutsideLayout } from '../app/i18n/locale-context';

// Components rendered on their own (outside a language's layout route) speak the default language.
setBundleOutsideLayout(handle.localeBundle);

afterEach(() => {
  cleanup();
  localStorage.clear();
});
