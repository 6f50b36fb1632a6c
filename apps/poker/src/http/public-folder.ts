import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The web page's folder, `apps/poker/public`, found by walking up from this file: the same answer
 * from the sources (tests) and from `dist/` (npm start), with nothing copied by the build.
 */
export function publicFolder(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'apps', 'poker', 'public');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`apps/poker/public/index.html not found above ${fileURLToPath(import.meta.url)}`);
  }
}
