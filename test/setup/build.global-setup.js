// Suites that run the framework in child processes (crash recovery, two instances, the CLI) need it
// compiled: the library package into libs/event-sourcing/dist, then apps and test/support into dist/.
import { execFileSync } from 'node:child_process';

export default async function buildForChildProcesses() {
  const tsc = (project) => execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: 'inherit' });
  tsc('libs/event-sourcing/tsconfig.build.json');
  tsc('tsconfig.e2e.json');
}
