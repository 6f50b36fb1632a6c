import { Presets, SingleBar } from 'cli-progress';
import { SnapshotRebuilder } from '@nest-es/core';
import { withPokerContext } from './poker-context.js';
import { formatRebuildSummary } from './rebuild-summary.js';

/** `snapshots rebuild <aggregateType>`: the exit code (1 when some aggregate could not be rebuilt). */
export function rebuildSnapshots(aggregateType: string): Promise<number> {
  return withPokerContext(async (context) => {
    const rebuilder = context.get(SnapshotRebuilder);
    // Also refuses an unknown aggregate type, before anything is drawn.
    const total = await rebuilder.count(aggregateType);
    const bar = new SingleBar(
      { format: '{type} [{bar}] {value}/{total} aggregates | {events} events | ETA {eta_formatted}', hideCursor: true },
      Presets.shades_classic,
    );
    bar.start(total, 0, { type: aggregateType, events: 0 });
    const summary = await rebuilder
      .rebuild(aggregateType, (progress) => {
        // Aggregates created while the rebuild runs are rebuilt too.
        if (progress.aggregates > bar.getTotal()) bar.setTotal(progress.aggregates);
        bar.update(progress.aggregates, { events: progress.eventsReplayed });
      })
      .finally(() => bar.stop());
    console.log(formatRebuildSummary(summary));
    if (summary.failed === 0) return 0;
    console.error(`${summary.failed} aggregate(s) of ${aggregateType} could not be rebuilt: see the errors above`);
    return 1;
  });
}
