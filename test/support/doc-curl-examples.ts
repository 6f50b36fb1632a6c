import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A `curl` command of a Markdown code block, with the status the line after it says it gets. */
export interface CurlExample {
  /** `file:line` of the command's first line. */
  where: string;
  /** The command as written, continuation lines included (a `$ ` prompt removed). */
  command: string;
  /** From the `# → 200 ...` line right after the command; undefined when the doc states none. */
  expectedStatus?: number;
}

/** Code blocks whose lines a reader pastes into a shell (no language: maybe). */
const SHELL_BLOCKS = new Set(['', 'bash', 'sh', 'shell', 'console', 'zsh']);
/** `curl ...`, or `NAME=$(curl ...` keeping something of the answer for the next examples. */
const CURL_LINE = /^(?:[A-Za-z_][A-Za-z0-9_]*=\$\()?curl\s/;
/** The convention (CONTRIBUTING.md): the line after the command, `# → <status>` and anything after. */
const STATUS_LINE = /^#\s*→\s*(\d{3})\b/;

/** Every curl example of a Markdown text, in the order a reader meets them. */
export function curlExamplesOf(markdown: string, file: string): CurlExample[] {
  const lines = markdown.split('\n');
  const examples: CurlExample[] = [];
  let fence: { marker: string; shell: boolean } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const fenceLine = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (fenceLine && !fence) {
      fence = { marker: fenceLine[1], shell: SHELL_BLOCKS.has(fenceLine[2].toLowerCase()) };
      continue;
    }
    if (fence && lines[i].trim().startsWith(fence.marker)) {
      fence = undefined;
      continue;
    }
    if (!fence?.shell) continue;
    const text = lines[i].trimStart().replace(/^\$ /, '');
    if (!CURL_LINE.test(text)) continue;
    const first = i;
    const parts = [text];
    while (/\\\s*$/.test(lines[i]) && i + 1 < lines.length) parts.push(lines[++i]);
    const status = STATUS_LINE.exec((lines[i + 1] ?? '').trimStart());
    examples.push({ where: `${file}:${first + 1}`, command: parts.join('\n'), expectedStatus: status ? Number(status[1]) : undefined });
  }
  return examples;
}

/** What one example got: its status (`000`: no answer), what it printed, or why it did not run. */
export interface CurlOutcome {
  status: number | 'not run';
  output: string;
}

export interface RunOptions {
  /** Where `localhost:3000`, the address every example names, is served in the test. */
  port: number;
  /** Variables the doc's text tells the reader to have (e.g. ADMIN_TOKEN). */
  env?: Record<string, string>;
  /** For the whole script; generous: CI runs on a loaded 2-core machine. */
  timeoutMs?: number;
}

/**
 * Runs a file's examples in order in one bash, as a reader pasting them would: a variable one example
 * sets (`TOKEN=$(curl ... | jq -r .token)`) is there for the next. `curl` is the real curl, called
 * with `-o <file> -w '%{http_code}'` so that the status is recorded and the answer still printed (for
 * the pipes), `--connect-to` pointing localhost:3000 at the app under test, and a time limit. Without
 * jq on the machine, a stand-in answers the one form the docs use, `jq -r .field`.
 */
export async function runCurlExamples(examples: CurlExample[], options: RunOptions): Promise<CurlOutcome[]> {
  const folder = mkdtempSync(join(tmpdir(), 'docs-curl-'));
  try {
    const script = [PRELUDE, ...examples.flatMap((example, index) => [`DOCS_EXAMPLE=${index}`, example.command])].join('\n');
    writeFileSync(join(folder, 'examples.sh'), script + '\n');
    const env = { ...process.env, ...options.env, DOCS_DIR: folder, DOCS_PORT: String(options.port), DOCS_NODE: process.execPath };
    const run = await new Promise<{ stdout: string; stderr: string; error: Error | null }>((resolve) =>
      execFile('bash', [join(folder, 'examples.sh')], { env, cwd: folder, timeout: options.timeoutMs ?? 240_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ stdout, stderr, error }),
      ),
    );
    const recorded = new Set(readdirSync(folder));
    return examples.map((_, index) => {
      if (!recorded.has(`${index}.status`)) return { status: 'not run', output: `bash: ${run.error?.message ?? 'exited'}\n${run.stderr}` };
      const read = (suffix: string) => (recorded.has(`${index}.${suffix}`) ? readFileSync(join(folder, `${index}.${suffix}`), 'utf8') : '');
      return { status: Number(read('status')), output: (read('body') + read('stderr')).slice(0, 2000) };
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const PRELUDE = String.raw`
curl() {
  local base="$DOCS_DIR/$DOCS_EXAMPLE"
  command curl -sS --noproxy '*' --max-time 60 --connect-to "localhost:3000:127.0.0.1:$DOCS_PORT" \
    "$@" -o "$base.body" -w '%{http_code}' >"$base.status" 2>"$base.stderr"
  local code=$?
  cat "$base.body" 2>/dev/null
  return $code
}
if ! command -v jq >/dev/null 2>&1; then
  jq() {
    if [ "$#" -ne 2 ] || [ "$1" != -r ] || ! [[ "$2" =~ ^\.[A-Za-z_][A-Za-z0-9_]*$ ]]; then
      echo "the docs check stands in for jq only as: jq -r .field" >&2
      return 2
    fi
    "$DOCS_NODE" -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const v = JSON.parse(s)[process.argv[1].slice(1)];
      console.log(v === undefined || v === null ? "null" : typeof v === "string" ? v : JSON.stringify(v));
    });' "$2"
  }
fi
`;
