/** The scheduler supplier owned by the module (one cached Scheduler per named aggregate). */
export const AGGREGATE_SCHEDULER_SUPPLIER = Symbol('AGGREGATE_SCHEDULER_SUPPLIER');
/** The AggregateDispatcher that runs commands in per-aggregate lanes. */
export const COMMAND_DISPATCHER = Symbol('COMMAND_DISPATCHER');
/** The TypeORM DataSource behind the stores. */
export const EVENT_SOURCING_DATA_SOURCE = Symbol('EVENT_SOURCING_DATA_SOURCE');
/** The TypeORM DataSource of the read models and the subscribers' checkpoints (the module's `readModels`). */
export const READ_MODEL_DATA_SOURCE = Symbol('READ_MODEL_DATA_SOURCE');
