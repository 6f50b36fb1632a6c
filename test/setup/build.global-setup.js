// Suites that run the framework in child processes (crash recovery, two instances) need it compiled:
// build libs, apps and test/support into dist/ once per run.
import { execFileSync } from 'node:child_process';

export default async function buildForChildProcesses() {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.e2e.json'], { stdio: 'inherit' });
}
