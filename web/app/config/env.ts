/**
 * The build variables as the site reads them. They were checked at build time (env-schema.ts, via
 * vite.config.ts) and inlined as __WEB_ENV__, so the browser carries the values, not the checker.
 */
import type { WebEnv } from './env-schema';

export type { WebEnv };

declare const __WEB_ENV__: WebEnv;

export const env: Readonly<WebEnv> = Object.freeze({ ...__WEB_ENV__ });
