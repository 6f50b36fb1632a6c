// The public surface of the @nest-es packages, kept in libs/<name>/api/*.api.md by API Extractor: one
// report per entry of each package's `exports` (libs/<name>/api-extractor.json for `.`,
// api-extractor.<entry>.json for `./<entry>`), except @nest-es/core/internal, the seam between the
// packages.
//   node scripts/api-report.mjs           check: fail when the built .d.ts differ from the reports,
//                                         when @nest-es/core's main entry exports more than
//                                         CORE_API_CAP names, or when an exported name is not
//                                         documented in docs/ (unless scripts/api-undocumented.json
//                                         lists it: then a warning, until the docs explain it)
//   node scripts/api-report.mjs --update  rewrite the reports after a deliberate change (and drop the
//                                         names of scripts/api-undocumented.json that are documented
//                                         or no longer exported)
// Both need the packages built first (npm run build:lib); the npm scripts api:check / api:update do it.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { PACKAGES } from './packages.mjs';

/** The 1.0 design: "@nest-es/core's API report holds at most 100 symbols" (its main entry). */
const CORE_API_CAP = 100;
const CAPPED_ENTRY = '@nest-es/core';
const ALLOWLIST = 'scripts/api-undocumented.json';
const update = process.argv.includes('--update');

/** Entries of `exports` that get no report: the seam between the packages, and the manifest. */
const UNREPORTED = ['./internal', './package.json'];

/**
 * Every report: its package's folder, its API Extractor config and the entry it describes. Each entry
 * of a package's `exports` has one: `.` in api-extractor.json, `./<name>` in api-extractor.<name>.json.
 */
function entries() {
  const found = [];
  for (const name of PACKAGES) {
    const folder = join('libs', name);
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const subpaths = Object.keys(manifest.exports ?? { '.': manifest.main }).filter((subpath) => !UNREPORTED.includes(subpath));
    for (const subpath of subpaths) {
      const config = subpath === '.' ? 'api-extractor.json' : `api-extractor.${subpath.slice(2).replaceAll('/', '-')}.json`;
      if (!existsSync(join(folder, config))) {
        failed = true;
        incomplete = true;
        console.error(`${folder}/${config} is missing: the entry ${manifest.name}${subpath.slice(1)} of its exports has no API report (copy one of the package's api-extractor*.json and set its mainEntryPointFilePath and reportFileName)`);
        continue;
      }
      found.push({ folder, config, entry: manifest.name + subpath.slice(1) });
    }
  }
  return found;
}

/** The names a report exports: declarations and re-exports (`export { A as B }` exports B). */
function exportedNames(report) {
  const names = new Set();
  for (const line of report.split('\n')) {
    const declared = /^export (?:declare )?(?:abstract )?(?:class|function|interface|type|const|let|var|enum|namespace) ([A-Za-z_$][\w$]*)/.exec(line);
    if (declared) names.add(declared[1]);
    const reexported = /^export \{ (.+) \}/.exec(line);
    if (reexported) for (const part of reexported[1].split(',')) names.add(part.trim().split(/\s+as\s+/).pop());
  }
  return names;
}

let failed = false;
/** Whether some entry has no report this run (then the allowlist is left as it is). */
let incomplete = false;
/** entry -> its exported names */
const reports = new Map();
for (const { folder, config: file, entry } of entries()) {
  let config;
  try {
    config = ExtractorConfig.loadFileAndPrepare(join(folder, file));
  } catch (error) {
    failed = incomplete = true;
    console.error(`${entry}: ${error.message} (build the packages first: npm run build:lib)`);
    continue;
  }
  if (update) mkdirSync(config.reportFolder, { recursive: true });
  const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false });
  const [report] = config.reportConfigs;
  const reportPath = join(config.reportFolder, report.fileName);
  if (!result.succeeded) {
    failed = true;
    console.error(`${reportPath}: the public API of ${entry} changed. Review the difference above; if it is deliberate, run npm run api:update and commit the report.`);
  }
  // The report of the current build (the temporary one), which is the committed one when they agree.
  const tempPath = join(config.reportTempFolder, report.fileName);
  reports.set(entry, exportedNames(readFileSync(existsSync(tempPath) ? tempPath : reportPath, 'utf8')));
}

for (const [entry, names] of reports) console.log(`${entry}: ${names.size} exported ${names.size === 1 ? 'name' : 'names'}`);

// The cap on the core's main entry.
const capped = reports.get(CAPPED_ENTRY)?.size ?? 0;
if (capped > CORE_API_CAP) {
  failed = true;
  console.error(`${CAPPED_ENTRY} exports ${capped} names, more than its cap of ${CORE_API_CAP} (CORE_API_CAP in scripts/api-report.mjs): move the rest to another entry or package, or make it internal.`);
} else {
  console.log(`${CAPPED_ENTRY}: ${capped} of at most ${CORE_API_CAP} exported names`);
}

// Every exported name is documented: it appears in backticks somewhere in docs/.
const docs = readdirSync('docs', { recursive: true })
  .filter((file) => String(file).endsWith('.md'))
  .map((file) => readFileSync(join('docs', String(file)), 'utf8'))
  .join('\n');
const documented = (name) => new RegExp('`[^`\\n]*\\b' + name.replaceAll('$', '\\$') + '\\b[^`\\n]*`').test(docs);
/** entry -> names known to be undocumented for now (the docs pass empties it) */
const allowed = existsSync(ALLOWLIST) ? JSON.parse(readFileSync(ALLOWLIST, 'utf8')) : {};
let undocumentedCount = 0;
let stale = 0;
const keep = {};
for (const [entry, names] of reports) {
  const undocumented = [...names].filter((name) => !documented(name)).sort();
  undocumentedCount += undocumented.length;
  const listed = new Set(allowed[entry] ?? []);
  const unlisted = undocumented.filter((name) => !listed.has(name));
  const tolerated = undocumented.filter((name) => listed.has(name));
  if (unlisted.length > 0) {
    failed = true;
    console.error(`${entry}: exported but not documented in docs/ (write each in backticks where it is explained): ${unlisted.join(', ')}`);
  }
  if (tolerated.length > 0) {
    console.warn(`warning: ${entry}: not documented in docs/ yet (listed in ${ALLOWLIST}): ${tolerated.join(', ')}`);
    keep[entry] = tolerated;
  }
  const done = [...listed].filter((name) => !tolerated.includes(name));
  stale += done.length;
  if (done.length > 0 && !update) console.warn(`warning: ${entry}: documented or no longer exported, remove from ${ALLOWLIST} (npm run api:update does): ${done.join(', ')}`);
}
for (const entry of Object.keys(allowed).filter((entry) => !reports.has(entry))) {
  stale += allowed[entry].length;
  if (!update) console.warn(`warning: ${ALLOWLIST} lists ${entry}, which has no report`);
}
if (update && stale > 0 && !incomplete) {
  const lines = Object.entries(keep).map(([entry, names]) => `  ${JSON.stringify(entry)}: ${JSON.stringify(names).replaceAll('","', '", "')}`);
  writeFileSync(ALLOWLIST, lines.length === 0 ? '{}\n' : `{\n${lines.join(',\n')}\n}\n`);
  console.log(`${ALLOWLIST}: dropped ${stale} names that are documented or no longer exported`);
}

const total = [...reports.values()].reduce((sum, names) => sum + names.size, 0);
console.log(`public API: ${total} exported names across ${reports.size} entries; ${undocumentedCount} undocumented`);
process.exit(failed ? 1 : 0);
