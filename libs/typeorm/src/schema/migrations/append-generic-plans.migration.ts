import { EventSourcingMigration } from '../event-sourcing-migration.js';

const APPEND_FUNCTIONS = [
  'es_append(text[], text[], integer[], text[], text[], text[], json, json)',
  'es_append(text[], text[], integer[], text[], text[], text[], json, json, text)',
];

// es_append's statements take arrays, whose length a cached generic plan cannot know: PL/pgSQL then
// kept choosing a custom plan, planning the state check, the inserts and the nested call anew on every
// append (about 0.3 ms of server CPU, more than the rest of the append). The generic plan is the one
// wanted at any batch size (an index lookup per stream and per command id, the rows inserted as given),
// so it is forced: each connection plans the statements once.
export class EventSourcingAppendGenericPlans1764547200007 extends EventSourcingMigration {
  readonly version = 7;
  readonly name = 'EventSourcingAppendGenericPlans1764547200007';
  readonly description = 'es_append planned once per connection';
  protected readonly upStatements = {
    sqlite: [],
    postgres: APPEND_FUNCTIONS.map((fn) => `ALTER FUNCTION ${fn} SET plan_cache_mode = force_generic_plan`),
  };
  protected readonly downStatements = {
    sqlite: [],
    postgres: APPEND_FUNCTIONS.map((fn) => `ALTER FUNCTION ${fn} RESET plan_cache_mode`),
  };
}
