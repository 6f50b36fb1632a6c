/**
 * docs/performance.md shows the newest full run's report (`bench/results/latest.md`) between these two
 * lines, so that the page's figures are always those of one run, the newest; a full run rewrites them.
 */
const BEGIN = '<!-- The newest full run: `npm run bench` writes this block from bench/results/latest.md. -->';
const END = '<!-- End of the newest full run. -->';

/** The report the page shows, or undefined when it has no such block. */
export function newestRunOf(page: string): string | undefined {
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (begin < 0 || end < begin) return undefined;
  return `${page.slice(begin + BEGIN.length, end).trim()}\n`;
}

/** The page with `report` in its block for the newest run. */
export function withNewestRun(page: string, report: string): string {
  if (newestRunOf(page) === undefined) throw new Error(`the performance page has no block for the newest run: put the lines\n${BEGIN}\n${END}\nwhere it goes`);
  return `${page.slice(0, page.indexOf(BEGIN) + BEGIN.length)}\n\n${report.trim()}\n\n${page.slice(page.indexOf(END))}`;
}
