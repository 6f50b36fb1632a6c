// `npm run pack:libs`: packs every built @nest-es package into packed/ (the tarballs an application
// installs before the packages are on the registry). The consumer fixtures pack through packLibrary too.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGES } from './packages.mjs';

const workspace = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Packs libs/<name> into destination: its manifest, the tarball's path and the files it holds. */
export function packLibrary(name, destination) {
  const folder = join(workspace, 'libs', name);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const output = execFileSync(npm, ['pack', '--json', '--pack-destination', destination], { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [packed] = JSON.parse(output);
  return { manifest, packed, path: join(destination, packed.filename) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const destination = join(workspace, 'packed');
  mkdirSync(destination, { recursive: true });
  for (const name of PACKAGES) console.log(packLibrary(name, destination).path);
}
