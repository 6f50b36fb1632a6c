export * from './scheduler.js';
export * from './aggregate-scheduler-supplier.js';
export * from './default-aggregate-scheduler-supplier.js';
export * from './borrowed-aggregate-scheduler-supplier.js';
export * from './group-key.js';
export * from './aggregate-dispatcher.js';
export * from './composite-event-dispatcher.js';
