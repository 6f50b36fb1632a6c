export const AGGREGATE_METADATA = 'event-sourcing:aggregate';
export const COMMAND_HANDLERS_METADATA = 'event-sourcing:command-handlers';
export const APPLIERS_METADATA = 'event-sourcing:appliers';
export const MERGE_HANDLER_METADATA = 'event-sourcing:merge-handler';
export const AGGREGATE_ID_PROPERTY_METADATA = 'event-sourcing:aggregate-id-property';
