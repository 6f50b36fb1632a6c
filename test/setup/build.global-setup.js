// Suites that run the framework in child processes (crash recovery, two instances, the CLI) need it
// compiled: the @nest-es packages into libs/*/dist, then apps and test/support into dist/.
import { execFileSync } from 'node:child_process';
import { PACKAGES } from '../../scripts/packages.mjs';

export default async function buildForChildProcesses() {
  const tsc = (project) => execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: 'inherit' });
  for (const name of PACKAGES) tsc(`libs/${name}/tsconfig.build.json`);
  tsc('tsconfig.e2e.json');
}
