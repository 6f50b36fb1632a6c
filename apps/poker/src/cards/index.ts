export * from './card.js';
export * from './deck.js';
export * from './evaluator.js';
export * from './pots.js';
export * from './positions.js';
export * from './variant.js';
