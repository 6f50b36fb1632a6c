import { InvalidArgumentError } from '../errors/index.js';
import type { SubscriberDefinition } from './subscriber-definition.js';

/** Maps a declared table of a projector to the table written: itself, or its copy's. */
export type TableName = (table: string) => string;

/** The name of a table in a blue/green copy: `<table>__<copy>` (the copy id is the framework's). */
export function copyTableName(table: string, copy: string): string {
  return `${table}__${copy}`;
}

/**
 * What `ctx.table` and `createTables` get: the declared table's name in the copy written (`copy`
 * undefined: the live tables); a name the projector did not declare is refused, so every table it
 * writes is one a rebuild copies and switches.
 */
export function tableNames(projector: SubscriberDefinition, copy?: string): TableName {
  const declared = new Set(projector.options.tables ?? []);
  return (table) => {
    if (!declared.has(table)) {
      throw new InvalidArgumentError(`projector '${projector.name}' writes table '${table}', which it does not declare: add it to @Projector('${projector.name}', { tables: [...] })`);
    }
    return copy === undefined ? table : copyTableName(table, copy);
  };
}

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,39}$/;

/** Boot checks of `tables` and `createTables`: both or neither, on projectors only, plain SQL names. */
export function tableProblems(definition: SubscriberDefinition): string[] {
  const { tables } = definition.options;
  const who = `${definition.classRef.name} ('${definition.name}')`;
  if (tables === undefined) return definition.createTables ? [`${who} has createTables() but declares no tables: add { tables: [...] } to @Projector`] : [];
  if (definition.kind !== 'projector') return [`${who} declares tables, which only projectors have`];
  const problems = tables.filter((table) => !TABLE_NAME.test(table)).map((table) => `${who} declares table '${table}': use lower-case letters, digits and _ (at most 40), as SQL folds unquoted names`);
  if (tables.length === 0) problems.push(`${who} declares an empty tables list`);
  if (new Set(tables).size !== tables.length) problems.push(`${who} declares a table twice`);
  if (!definition.createTables) problems.push(`${who} declares tables but has no createTables(tx, table) method to create them`);
  return problems;
}
