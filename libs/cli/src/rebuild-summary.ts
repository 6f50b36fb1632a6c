import type { RebuildSummary } from '@nest-es/core/internal';

/** The summary printed after a snapshot rebuild, one figure a line. */
export function formatRebuildSummary(summary: RebuildSummary): string {
  const rows: [string, string][] = [
    ['aggregates', String(summary.aggregates)],
    ['events replayed', String(summary.eventsReplayed)],
    ['snapshots written', String(summary.snapshotsWritten)],
    ['failed', String(summary.failed)],
    ['time', `${(summary.durationMs / 1000).toFixed(2)} s`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [`snapshots of ${summary.aggregateType} rebuilt`, ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)].join('\n');
}
