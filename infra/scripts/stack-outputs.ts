/** Transitional: github-setup.ts still imports this path; the outputs are read in kit/stack-outputs.ts. */
export { stackOutputs } from './kit/stack-outputs';
