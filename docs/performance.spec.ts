import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { newestRunOf, withNewestRun } from '../bench/performance-page.js';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

describe('docs/performance.md', () => {
  it('shows the newest full run as the bench reported it (bench/results/latest.md)', () => {
    const latest = read('../bench/results/latest.md');
    expect(latest).toMatch(/Mode: full/);
    expect(newestRunOf(read('performance.md'))).toBe(latest);
  });

  it('is rewritten by a run in its block only, and a page without the block is refused', () => {
    const page = read('performance.md');
    const rewritten = withNewestRun(page, '| figure |\n|---|\n\nMachine: another.\n');
    expect(newestRunOf(rewritten)).toBe('| figure |\n|---|\n\nMachine: another.\n');
    expect(withNewestRun(rewritten, newestRunOf(page)!)).toBe(page);
    expect(() => withNewestRun('# Performance\n', 'report')).toThrow(/no block for the newest run/);
  });
});
