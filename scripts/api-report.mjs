// The public surface of @nest-es/core, kept in libs/event-sourcing/api/*.api.md by API Extractor.
//   node scripts/api-report.mjs           check: fail when the built .d.ts differ from the reports, or
//                                         when an exported name is not documented in docs/
//   node scripts/api-report.mjs --update  rewrite the reports after a deliberate change
// Both need the library built first (npm run build:lib); the npm scripts api:check / api:update do it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const LIB = 'libs/event-sourcing';
const ENTRIES = ['api-extractor.json', 'api-extractor.cqrs.json', 'api-extractor.testing.json'];
const update = process.argv.includes('--update');

let failed = false;
const names = new Set();
for (const file of ENTRIES) {
  const config = ExtractorConfig.loadFileAndPrepare(join(LIB, file));
  const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false });
  if (!result.succeeded) {
    failed = true;
    console.error(`${config.reportFilePath}: the public API changed. Review the difference above; if it is deliberate, run npm run api:update and commit the report.`);
  }
  for (const line of readFileSync(config.reportFilePath, 'utf8').split('\n')) {
    const declared = /^export (?:declare )?(?:abstract )?(?:class|function|interface|type|const|enum|namespace) ([A-Za-z_$][\w$]*)/.exec(line);
    if (declared) names.add(declared[1]);
    const reexported = /^export \{ (.+) \}/.exec(line);
    if (reexported) for (const part of reexported[1].split(',')) names.add(part.trim().split(/\s+as\s+/).pop());
  }
}

// Every exported name is documented: it appears in backticks somewhere in docs/.
const docs = readdirSync('docs', { recursive: true })
  .filter((file) => String(file).endsWith('.md'))
  .map((file) => readFileSync(join('docs', String(file)), 'utf8'))
  .join('\n');
const undocumented = [...names].filter((name) => !new RegExp('`[^`\\n]*\\b' + name.replace('$', '\\$') + '\\b[^`\\n]*`').test(docs));
if (undocumented.length > 0) {
  failed = true;
  console.error(`exported but not documented in docs/ (write each in backticks where it is explained): ${undocumented.sort().join(', ')}`);
}
console.log(`public API: ${names.size} exported names across ${ENTRIES.length} entries; ${undocumented.length} undocumented`);
process.exit(failed ? 1 : 0);
