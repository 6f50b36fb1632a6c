export * from './command-validation.js';
export * from './table.aggregate.js';
export * from './table.commands.js';
export * from './table.events.js';
export * from './table.state.js';
