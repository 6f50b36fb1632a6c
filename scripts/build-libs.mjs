// Builds the @nest-es packages in dependency order (the others compile against the core's .d.ts).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { PACKAGES } from './packages.mjs';

for (const name of PACKAGES) {
  rmSync(`libs/${name}/dist`, { recursive: true, force: true });
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `libs/${name}/tsconfig.build.json`], { stdio: 'inherit' });
}
