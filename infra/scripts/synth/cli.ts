/** `npm run synth`: see run.ts. */
import { runCommand } from '../kit/command';
import { runSynth, USAGE } from './run';

runCommand({ name: 'synth', usage: USAGE, run: runSynth });
