export * from './hand.aggregate.js';
export * from './hand.commands.js';
export * from './hand.events.js';
export * from './hand.state.js';
export * from './streets.js';
export { drawnHand } from './dealing.js';
export * from './turns.js';
