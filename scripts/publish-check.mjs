// `npm publish --dry-run` of every @nest-es package under libs/: what the registry would be sent,
// without sending it. Fails when npm reports an error for a package (or its dry run fails); prints
// npm's warnings (e.g. fields it would correct in a package.json) and what each tarball holds.
// Needs the packages built first (npm run build:lib); the npm script publish:check does it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGES } from './packages.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let failed = 0;

for (const name of PACKAGES) {
  const folder = join('libs', name);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const label = `${manifest.name}@${manifest.version}`;
  if (!existsSync(join(folder, 'dist'))) {
    failed++;
    console.error(`FAIL ${label}: ${folder}/dist is missing (npm run build:lib)`);
    continue;
  }
  // --ignore-scripts: the dry run checks what is there, building is build:lib's job; --loglevel: its
  // warnings even under `npm run --silent` (which children inherit through npm_config_loglevel).
  const result = spawnSync(npm, ['publish', '--dry-run', '--json', '--ignore-scripts', '--loglevel=warn'], { cwd: folder, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const stderr = result.stderr ?? '';
  const errors = stderr.split('\n').filter((line) => /^npm (error|ERR!)/.test(line));
  const warnings = stderr.split('\n').filter((line) => /^npm warn/.test(line) && !/requires you to be logged in/.test(line));
  let report;
  try {
    const parsed = JSON.parse(result.stdout);
    report = parsed[manifest.name] ?? parsed;
  } catch {
    report = undefined;
  }
  if (result.status !== 0 || errors.length > 0 || report?.error || !report?.files) {
    failed++;
    console.error(`FAIL ${label}: npm publish --dry-run exited with ${result.status ?? result.signal}`);
    for (const line of errors.length > 0 ? errors : stderr.trim().split('\n')) console.error(`  ${line}`);
    if (report?.error) console.error(`  ${JSON.stringify(report.error)}`);
    continue;
  }
  console.log(`ok   ${label}: ${report.entryCount} files, ${(report.size / 1024).toFixed(1)} kB packed, ${(report.unpackedSize / 1024).toFixed(1)} kB unpacked`);
  for (const line of warnings) console.log(`  ${line}`);
}

console.log(`publish dry runs: ${PACKAGES.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
