import type { StoredEvent } from '@nest-es/core';

export interface WireEvent {
  type: string;
  sequence: number;
  position: number;
  payload: unknown;
  metadata?: unknown;
  occurredAt?: string;
}

export function toWireEvent(event: StoredEvent): WireEvent {
  return { type: event.type, sequence: event.sequence, position: event.position, payload: event.payload };
}

/** The long form, for event listings where ids and times matter. */
export function toDetailedWireEvent(event: StoredEvent): WireEvent {
  return { ...toWireEvent(event), metadata: event.metadata, occurredAt: event.occurredAt.toISOString() };
}
