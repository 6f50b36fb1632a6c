import { InvalidArgumentError } from '../errors/index.js';
import type { CapableEventStore, EventStore, StreamLoads } from './event-store.js';

/** The optional methods of the event store port, and what each is needed for. */
export const EVENT_STORE_CAPABILITIES = {
  readPartition: 'partitioned subscription reads (without it subscriptions read everything and filter)',
  readByCorrelation: 'CASCADE waits on sagas and process managers',
  streamIds: 'snapshot rebuilds',
  findByExternalId: 'facts emitted by sagas and process managers',
  loadStream: 'one-read loads of cold aggregates (without it the snapshot is read, then the events after it)',
} as const;

export type EventStoreCapability = keyof typeof EVENT_STORE_CAPABILITIES;

/** An adapter's event store with whatever optional capabilities it has. */
export type AdapterEventStore = EventStore & Partial<Omit<CapableEventStore, keyof EventStore>> & Partial<StreamLoads>;

export function hasCapability(store: AdapterEventStore, capability: EventStoreCapability): boolean {
  return typeof store[capability] === 'function';
}

export function missingCapabilityError(adapter: string, capability: EventStoreCapability): InvalidArgumentError {
  return new InvalidArgumentError(
    `the "${adapter}" adapter's event store has no ${capability}(), which ${EVENT_STORE_CAPABILITIES[capability]} need: add it to the adapter (see @nest-es/core/adapter)`,
  );
}

/**
 * Fails the boot when the application needs a capability the adapter's store lacks: workflows
 * (sagas and process managers) need correlation reads (CASCADE) and external-id lookups (facts).
 */
export function assertCapabilitiesFor(store: AdapterEventStore, adapter: string, needs: { workflows: boolean }): void {
  if (!needs.workflows) return;
  for (const capability of ['readByCorrelation', 'findByExternalId'] as const) {
    if (!hasCapability(store, capability)) throw missingCapabilityError(adapter, capability);
  }
}
