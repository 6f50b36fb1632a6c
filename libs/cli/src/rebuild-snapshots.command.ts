import { SnapshotRebuilder } from '@nest-es/core/internal';
import { withApplication, type MaintenanceEntry } from './application.js';
import { createProgress } from './progress.js';
import { formatRebuildSummary } from './rebuild-summary.js';

/** `snapshots rebuild <aggregateType>`: the exit code (1 when some aggregate could not be rebuilt). */
export function rebuildSnapshots(entry: MaintenanceEntry, aggregateType: string): Promise<number> {
  return withApplication(entry, { enabled: false }, async (context) => {
    const rebuilder = context.get(SnapshotRebuilder);
    // Also refuses an unknown aggregate type, before anything is drawn.
    const total = await rebuilder.count(aggregateType);
    const progress = createProgress(
      '{type} [{bar}] {value}/{total} aggregates | {events} events | ETA {eta_formatted}',
      (value, of, payload) => `${aggregateType}: ${value}/${of} aggregates, ${String(payload.events ?? 0)} events`,
    );
    progress.start(total, { type: aggregateType, events: 0 });
    const summary = await rebuilder
      .rebuild(aggregateType, (step) => {
        // Aggregates created while the rebuild runs are rebuilt too.
        if (step.aggregates > total) progress.setTotal(step.aggregates);
        progress.update(step.aggregates, { events: step.eventsReplayed });
      })
      .finally(() => progress.stop());
    console.log(formatRebuildSummary(summary));
    if (summary.failed === 0) return 0;
    console.error(`${summary.failed} aggregate(s) of ${aggregateType} could not be rebuilt: see the errors above`);
    return 1;
  });
}
