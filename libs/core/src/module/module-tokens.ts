/** The adapter object given to the module (the lifecycle closes it at shutdown). */
export const EVENT_SOURCING_ADAPTER = Symbol('EVENT_SOURCING_ADAPTER');
