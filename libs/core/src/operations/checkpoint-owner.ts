import type { EventProcessor } from '../processing/event-processor.js';
import type { Membership } from '../store/partition-leases.js';
import type { CheckpointOwner } from './subscriber-overview.js';

/**
 * Who runs a checkpoint, computed the way the partition coordinator assigns it: every instance
 * lists the same units in the same order, and unit i belongs to live instance i mod n.
 */
export function checkpointOwner(processor: EventProcessor, checkpoint: string, membership: Membership | null): CheckpointOwner {
  const runsHere = processor.heldStatus(checkpoint) !== undefined;
  const index = processor.units().indexOf(checkpoint);
  if (!processor.sharedAmongInstances || index < 0 || !membership || membership.live.length === 0) return { instance: null, runsHere };
  return { instance: membership.live[index % membership.live.length], runsHere };
}
