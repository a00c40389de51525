/**
 * What the deploy configuration tells the prerendered pages (the privacy policy states how long the
 * message archive keeps a message). Checked at build time (env-schema.ts) and inlined as
 * __PAGE_FACTS__; only build-time loaders read it, so it never reaches a browser bundle.
 */
import type { PolicyFacts } from '../../content/types';

declare const __PAGE_FACTS__: PolicyFacts;

export const pageFacts: Readonly<PolicyFacts> = Object.freeze({ ...__PAGE_FACTS__ });
