/**
 * One step of the store's schema. Versions only grow; a released migration is never edited:
 * change the schema by appending a new one (to both dialects' lists).
 */
export interface Migration {
  version: number;
  name: string;
  /** Run in order, in one transaction with the other pending migrations. */
  statements: string[];
}
