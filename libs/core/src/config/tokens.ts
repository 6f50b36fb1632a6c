/** The scheduler supplier owned by the module (one cached Scheduler per named aggregate). */
export const AGGREGATE_SCHEDULER_SUPPLIER = Symbol('AGGREGATE_SCHEDULER_SUPPLIER');
/** The AggregateDispatcher that runs commands in per-aggregate lanes. */
export const COMMAND_DISPATCHER = Symbol('COMMAND_DISPATCHER');
/** The ports the adapter opened (`AdapterPorts`). */
export const ADAPTER_PORTS = Symbol('ADAPTER_PORTS');
