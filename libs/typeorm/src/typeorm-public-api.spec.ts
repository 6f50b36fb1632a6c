// The adapter reaches TypeORM (and pg) through their public API only: what TypeORM's drivers hold
// (the pg pool and module, the better-sqlite3 handle) is theirs to change in any patch release.
// Read from the syntax tree, so comments and strings that name the internals do not count.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Members of TypeORM's drivers and query runners, and of pg-pool and pg's client, that are not public API. */
const INTERNALS = new Set([
  'databaseConnection',
  'master',
  'slaves',
  'postgres',
  'connectedQueryRunners',
  'obtainMasterConnection',
  'obtainSlaveConnection',
  'releasePostgresConnection',
  '_clients',
  '_idle',
  '_queryable',
  '_ending',
]);

interface Finding {
  file: string;
  line: number;
  code: string;
}

/** Where `source` reads an internal member, or casts a DataSource's `driver` to reach one. */
function findInternals(file: string, source: string): Finding[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const findings: Finding[] = [];
  const report = (node: ts.Node) => {
    const line = sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    findings.push({ file, line, code: node.getText().replace(/\s+/g, ' ') });
  };
  const visit = (node: ts.Node): void => {
    const member = memberName(node);
    if (member !== undefined && INTERNALS.has(member) && !isReplicationMaster(node)) report(node);
    if (ts.isAsExpression(node) && castsDriver(node)) report(node);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return findings;
}

/** The member read by `a.b`, `a['b']` or `const { b } = a`. */
function memberName(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) return node.argumentExpression.text;
  if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
    const name = node.propertyName ?? node.name;
    return ts.isIdentifier(name) || ts.isStringLiteralLike(name) ? name.text : undefined;
  }
  return undefined;
}

/** `options.replication.master`: the public option of a replicated DataSource, not the driver's pool. */
function isReplicationMaster(node: ts.Node): boolean {
  return ts.isPropertyAccessExpression(node) && node.name.text === 'master' && /\breplication\??$/.test(node.expression.getText());
}

/** `x.driver as unknown` / `as any`: how the driver's untyped members were reached. */
function castsDriver(node: ts.AsExpression): boolean {
  let inner: ts.Expression = node.expression;
  while (ts.isParenthesizedExpression(inner)) inner = inner.expression;
  const loose = node.type.kind === ts.SyntaxKind.UnknownKeyword || node.type.kind === ts.SyntaxKind.AnyKeyword;
  return loose && ts.isPropertyAccessExpression(inner) && inner.name.text === 'driver';
}

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the TypeORM adapter uses TypeORM through its public API', () => {
  it('reads no driver internals anywhere in libs/typeorm/src', () => {
    const root = fileURLToPath(new URL('.', import.meta.url));
    const files = typeScriptFiles(root);
    expect(files.length).toBeGreaterThan(20);
    const findings = files.flatMap((file) => findInternals(relative(root, file), readFileSync(file, 'utf8')));
    expect(findings).toEqual([]);
  });

  it('finds the ways internals were read, and not their names in comments, strings or public options', () => {
    const source = [
      '// driver.master and driver.databaseConnection, in a comment',
      "const driver = dataSource.driver as unknown as { master: pg.Pool };",
      'const pool = driver.master;',
      "const db = (dataSource.driver as any)['databaseConnection'];",
      'const { postgres } = driver;',
      "const text = 'driver.postgres, in a string';",
      'const url = options.replication?.master.url;',
    ].join('\n');
    expect(findInternals('sample.ts', source).map(({ line, code }) => ({ line, code }))).toEqual([
      { line: 2, code: 'dataSource.driver as unknown' },
      { line: 3, code: 'driver.master' },
      { line: 4, code: "(dataSource.driver as any)['databaseConnection']" },
      { line: 4, code: 'dataSource.driver as any' },
      { line: 5, code: 'postgres' },
    ]);
  });
});
