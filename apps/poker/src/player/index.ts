export * from './player.aggregate.js';
export * from './player.commands.js';
export * from './player.events.js';
export * from './player.state.js';
