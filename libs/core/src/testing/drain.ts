import type { INestApplicationContext } from '@nestjs/common';
import { EventProcessor } from '../processing/event-processor.js';
import { AdmissionGate } from '../runtime/admission-gate.js';
import { CHECKPOINT_STORE, type CheckpointStore } from '../store/checkpoint-store.js';
import { EVENT_STORE, type EventStore } from '../store/event-store.js';

const POLL_MS = 5;

/**
 * Waits until the application is quiet: no command in flight, and every subscriber running in it
 * (projectors, sagas, process managers, each partition) has finished every event up to the head of
 * the store, with nothing held for retry, the head having stopped moving (what sagas and process managers
 * emit is drained too). For tests: `await drain(app)` after sending, then assert on read models.
 */
export async function drain(app: INestApplicationContext, options: { timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  const store = app.get<EventStore>(EVENT_STORE, { strict: false });
  const checkpoints = app.get<CheckpointStore>(CHECKPOINT_STORE, { strict: false });
  const processor = app.get(EventProcessor, { strict: false });
  const admission = app.get(AdmissionGate, { strict: false });
  const behind = async (head: number) => {
    if (admission.active > 0) return true;
    // A subscription's read position passes only events it finished or ignores (its checkpoint may
    // lag behind over ignored ones until its next idle save).
    for (const name of processor.runningPartitions()) {
      if ((processor.position(name) ?? (await checkpoints.load(name))) < head) return true;
    }
    return (await checkpoints.loadHeld()).some((held) => held.position <= head);
  };
  for (;;) {
    const head = await store.headPosition();
    if (!(await behind(head)) && (await store.headPosition()) === head) return;
    if (Date.now() > deadline) throw new Error(`the application did not drain within ${timeoutMs} ms (head position ${head})`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
