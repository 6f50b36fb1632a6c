export * from './balances.projector.js';
export * from './balances.query.js';
export * from './hand-view.js';
export * from './leaderboard.projector.js';
export * from './leaderboard.query.js';
export * from './table-view.projector.js';
export * from './table-view.query.js';
