/** The TypeORM DataSource behind the adapter's stores (injectable once the module has booted). */
export const EVENT_SOURCING_DATA_SOURCE = Symbol('EVENT_SOURCING_DATA_SOURCE');
/** The DataSource of the read models and the subscribers' checkpoints (the adapter's `readModels`). */
export const READ_MODEL_DATA_SOURCE = Symbol('READ_MODEL_DATA_SOURCE');
