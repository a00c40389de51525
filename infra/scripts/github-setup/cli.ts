/** `npm run github-setup`: let GitHub Actions deploy with no AWS key stored (docs/deploy.md, "Deploy from GitHub"). */
import { runCommand } from '../kit/command';
import { githubSetupCommand, USAGE } from './run';

runCommand({ name: 'github-setup', usage: USAGE, run: githubSetupCommand });
