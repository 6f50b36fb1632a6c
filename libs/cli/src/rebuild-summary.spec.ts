import { formatRebuildSummary } from './rebuild-summary.js';

describe('formatRebuildSummary', () => {
  it('prints every figure of a rebuild on its own aligned line', () => {
    const text = formatRebuildSummary({ aggregateType: 'player', aggregates: 3000, eventsReplayed: 18000, snapshotsWritten: 2999, failed: 1, durationMs: 1234.5 });

    expect(text).toBe(
      [
        'snapshots of player rebuilt',
        '  aggregates         3000',
        '  events replayed    18000',
        '  snapshots written  2999',
        '  failed             1',
        '  time               1.23 s',
      ].join('\n'),
    );
  });
});
