import type { StoredEvent } from '../model/event-envelope.js';
import { principalIdOf, type ProcessContext } from './subscriber-context.js';

export interface ProcessStepFacts {
  key: string;
  correlationId: string;
  sequence: number;
  now: Date;
  event?: StoredEvent;
  /** The aggregate states as of the trigger (absent on a timer step, which reads nothing). */
  stateOf?: (aggregateType: string, aggregateId: string) => Promise<unknown>;
}

/**
 * The context a process manager's step gets: a copy of its state, and pure helpers over it.
 * `applyOwn` folds events of its own into a state (through its `@Apply` methods).
 */
export function processContextOf<S>(owner: string, state: S, facts: ProcessStepFacts, applyOwn: (state: S, events: object[]) => S): ProcessContext<S> {
  return {
    state: structuredClone(state),
    key: facts.key,
    correlationId: facts.correlationId,
    sequence: facts.sequence,
    now: facts.now,
    envelope: facts.event,
    ...principalIdOf(facts.event),
    stateAfter: (...events: object[]) => applyOwn(structuredClone(state), events),
    stateOf: async <T>(aggregateType: string, aggregateId: string): Promise<T> => {
      if (!facts.stateOf) throw new Error(`${owner}: a timer step reads no aggregate; put what it needs in the timer's payload`);
      return (await facts.stateOf(aggregateType, aggregateId)) as T;
    },
  };
}

/** An event of its own as a replay sees it: its declared type, and its fields as stored (JSON). */
export function asStored(event: object, typeName: (event: object) => string): { type: string; payload: unknown } {
  return { type: typeName(event), payload: JSON.parse(JSON.stringify(event)) };
}
