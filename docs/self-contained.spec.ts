import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'coverage', 'artifacts', 'results', '.git']);
const TEXT = /\.(ts|js|mjs|cjs|md|json|html|css|sh|yml|yaml)$|^run$/;

/** The repository's own text files: sources, tests, docs, scripts (not dependencies or build output). */
function textFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : textFiles(path);
    return TEXT.test(name) && name !== 'package-lock.json' ? [path] : [];
  });
}

// Built from parts so that this file does not match itself.
const OUTSIDE_DOCUMENTS = new RegExp(['DESIGN', 'POKER'].map((name) => `\\b${name}\\.md\\b`).concat(['\\bseeds?/', '\\bseed 0\\d\\d\\b']).join('|'), 'i');

describe('the repository', () => {
  it('points to no document outside it: the reasons are written where they are used', () => {
    const files = textFiles(root);
    expect(files.length).toBeGreaterThan(100);
    const offending = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (OUTSIDE_DOCUMENTS.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });
});
