import { commandFigures, type CommandFigures, type CommandRun } from './command.bench.js';
import type { RawDriver } from './raw-driver.js';
import { round } from './stats.js';

/** A one-caller figure with the raw driver's serial commit rate timed in turns with it. */
export type BesideRaw<T> = T & {
  /** One row per transaction, one caller: the mean of the windows timed between the figure's slices. */
  rawSerialPerSec: number;
};

/** Slices of a one-caller figure, each followed by a window of the raw driver's serial commits. */
export const BESIDE_RAW_SLICES = 10;

/**
 * Times a one-caller figure in BESIDE_RAW_SLICES slices, each followed by a window of the raw
 * driver's serial commits (`rawMs` in all), so that their ratio compares the same seconds of the
 * host: on a shared machine the rate of durable commits moves by a third between consecutive
 * seconds, more than a one-caller target's margin. The framework's slice goes first in each turn,
 * so the database's background work after a heavier load lands on it, not on the baseline.
 */
export async function besideSerialRaw(raw: RawDriver, rawMs: number, slice: (index: number) => Promise<CommandRun>): Promise<BesideRaw<CommandFigures>> {
  const runs: CommandRun[] = [];
  let rawRates = 0;
  for (let index = 0; index < BESIDE_RAW_SLICES; index++) {
    runs.push(await slice(index));
    rawRates += await raw.commitsPerSecond(1, rawMs / BESIDE_RAW_SLICES, 1);
  }
  return { ...commandFigures(...runs), rawSerialPerSec: round(rawRates / BESIDE_RAW_SLICES) };
}
