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

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const headings = markdown.replace(/^```[\s\S]*?^```$/gm, '').match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((heading) => anchorOf(heading.replace(/^#+ /, ''))));
}

describe('the Markdown files', () => {
  it('link only to files and headings that exist', () => {
    const pages = textFiles(root).filter((file) => file.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(10);
    const broken = pages.flatMap((page) => {
      const text = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
      return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => match[1])
        .filter((target) => !/^[a-z]+:/i.test(target))
        .flatMap((target) => {
          const [path, anchor] = target.split('#');
          const file = path ? join(page, '..', path) : page;
          let exists = true;
          try {
            statSync(file);
          } catch {
            exists = false;
          }
          if (!exists) return [`${relative(root, page)}: ${target} (no such file)`];
          if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) return [`${relative(root, page)}: ${target} (no such heading)`];
          return [];
        });
    });
    expect(broken).toEqual([]);
  });
});
