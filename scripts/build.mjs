// Builds the @nest-es packages in dependency order (each compiles against the .d.ts of those before
// it), then the poker app and the benchmark. A unit is compiled only when one of its inputs is newer
// than its last build, so `npm start` on a built checkout starts at once; tsc then re-emits only the
// files that changed (its build info is kept in node_modules/.cache, outside what is packed).
// Usage: node scripts/build.mjs [--libs] [--force]   (--libs: the packages only; --force: all from clean)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGES } from './packages.mjs';

const STAMP = '.built';
const CACHE = 'node_modules/.cache/nest-es';

/** tsc's arguments for a project, incremental, as `npm run dev` runs them too. */
export function tscArguments(unit) {
  return ['node_modules/typescript/bin/tsc', '-p', unit.project, '--incremental', '--tsBuildInfoFile', join(CACHE, `${unit.key}.tsbuildinfo`)];
}

/** The newest modification time under the given files and folders (output and dependencies skipped). */
function newest(paths) {
  let latest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (!stat.isDirectory()) return void (latest = Math.max(latest, stat.mtimeMs));
    for (const entry of readdirSync(path)) if (entry !== 'dist' && entry !== 'node_modules') visit(join(path, entry));
  };
  paths.forEach(visit);
  return latest;
}

function stale(unit) {
  const stamp = join(unit.output, STAMP);
  return !existsSync(stamp) || newest(unit.inputs) > statSync(stamp).mtimeMs;
}

const shared = ['tsconfig.base.json'];
export const libraries = PACKAGES.map((name, index) => ({
  key: name,
  name: `@nest-es/${name}`,
  project: `libs/${name}/tsconfig.build.json`,
  output: `libs/${name}/dist`,
  inputs: [`libs/${name}/src`, `libs/${name}/tsconfig.build.json`, `libs/${name}/package.json`, ...shared, ...PACKAGES.slice(0, index).map((before) => `libs/${before}/dist/${STAMP}`)],
  clean: true,
}));
export const app = {
  key: 'app',
  name: 'the poker app and the benchmark',
  project: 'tsconfig.build.json',
  output: 'dist',
  inputs: ['apps', 'bench', 'tsconfig.build.json', ...shared, ...PACKAGES.map((name) => `libs/${name}/dist/${STAMP}`)],
  clean: false,
};

export function build({ libsOnly = false, force = false } = {}) {
  for (const unit of libsOnly ? libraries : [...libraries, app]) {
    if (!force && !stale(unit)) continue;
    console.log(`building ${unit.name}`);
    if (force && unit.clean) rmSync(unit.output, { recursive: true, force: true });
    if (force) rmSync(join(CACHE, `${unit.key}.tsbuildinfo`), { force: true });
    execFileSync(process.execPath, tscArguments(unit), { stdio: 'inherit' });
    writeFileSync(join(unit.output, STAMP), '');
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build({ libsOnly: process.argv.includes('--libs'), force: process.argv.includes('--force') });
}
