import { type DataSource, EntityManager } from 'typeorm';
import { preparedStatement } from './postgres-statements.js';

/** A DataSource for reads, or a projector's transactional EntityManager for writes. */
export type Queryable = DataSource | EntityManager;

/**
 * Runs SQL written with PostgreSQL's `$1, $2 ...` on either database of the store, so a projector
 * (or its read queries) has one text for both: SQLite gets `?` and the parameters in the order they
 * appear (so one `$n` may be used twice).
 */
export function portableQuery<T = Record<string, unknown>>(db: Queryable, text: string, params: unknown[] = []): Promise<T[]> {
  const dataSource = db instanceof EntityManager ? db.connection : db;
  if (dataSource.options.type === 'postgres') return db.query(writesNoRows(text) ? (asNamedQuery(text, params) as unknown as string) : text, params);
  const ordered: unknown[] = [];
  const sqlite = text.replace(/\$(\d+)/g, (_match, n: string) => {
    ordered.push(params[Number(n) - 1]);
    return '?';
  });
  return db.query(sqlite, ordered);
}

/** An INSERT, UPDATE or DELETE without RETURNING: a statement that cannot return rows. */
const WRITE_WITHOUT_ROWS = /^\s*(insert|update|delete)\b(?![\s\S]*\breturning\b)/i;

/**
 * Whether a PostgreSQL text runs as a named (server-side prepared) statement, parsed and planned once
 * per connection instead of on every call: a projector's writes run once per event. Only statements
 * that return no rows, because a prepared statement fails once a table it reads changes the columns it
 * returns ("cached plan must not change result type"), which a read model's migration may do.
 */
function writesNoRows(text: string): boolean {
  return WRITE_WITHOUT_ROWS.test(text);
}

/**
 * The query as pg's query config: TypeORM's query runner hands its query to the pg client as given,
 * so the statement keeps TypeORM's error wrapping and result shape and is sent by name. Its text is
 * what TypeORM's loggers print.
 */
function asNamedQuery(text: string, params: unknown[]): { name?: string; text: string; values: unknown[]; toString(): string } {
  return { ...preparedStatement(text), values: params, toString: () => text };
}
