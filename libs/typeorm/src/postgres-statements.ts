import type pg from 'pg';

/** `?` placeholders as PostgreSQL's `$1, $2, ...`. */
export function numberPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

const preparedStatements = new Map<string, { name: string; text: string }>();
/**
 * Most SQL texts given a name. Past it (SQL built anew per call, say) statements run unnamed, so no
 * connection keeps an ever-growing set of prepared statements.
 */
const MAX_PREPARED_STATEMENTS = 1000;

/**
 * A SQL text as a named (server-side prepared) statement with PostgreSQL's `$n` placeholders, `toText`
 * turning the given SQL into that text (once per SQL); unnamed past MAX_PREPARED_STATEMENTS texts.
 * Names are process-wide so that one pooled connection never sees a name reused for other SQL.
 */
export function preparedStatement(sql: string, toText: (sql: string) => string = (text) => text): { name?: string; text: string } {
  const prepared = preparedStatements.get(sql);
  if (prepared !== undefined) return prepared;
  if (preparedStatements.size >= MAX_PREPARED_STATEMENTS) return { text: toText(sql) };
  const statement = { name: `es_${preparedStatements.size + 1}`, text: toText(sql) };
  preparedStatements.set(sql, statement);
  return statement;
}

/** A named query for one of the stores' SQL texts, written with `?` placeholders. */
export function pgQuery(sql: string, values: readonly unknown[], types: pg.CustomTypesConfig): pg.QueryConfig {
  return { ...preparedStatement(sql, numberPlaceholders), values: values as unknown[], types };
}
