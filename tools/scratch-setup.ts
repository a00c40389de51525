// Every project's setup file: the scratch directories a test file made go when its tests end.
import { afterAll } from 'vitest';
import { removeScratchDirs } from './scratch';

afterAll(removeScratchDirs);
