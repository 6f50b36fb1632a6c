import type { NewEvent, StoredEvent, StreamId } from '@nest-es/core';
import type { AppendRequest, AppendResult } from '@nest-es/core/adapter';
import { ConcurrencyError, DuplicateCommandError } from '@nest-es/core/adapter';
import { streamKey } from '@nest-es/core/internal';

export type AppendOutcome = AppendResult | ConcurrencyError | DuplicateCommandError;

/** What is stored, read inside the batch's transaction after the writer made itself the only one. */
export interface StoredState {
  sequence(stream: StreamId): number;
  commandRecorded(stream: StreamId, commandId: string): boolean;
}

export interface PlannedEvent {
  stream: StreamId;
  sequence: number;
  event: NewEvent;
  occurredAt: Date;
}

export interface PlannedCommand {
  stream: StreamId;
  commandId: string;
  fingerprint: string | null;
  sequenceBefore: number;
  sequenceAfter: number;
}

type Decision = ConcurrencyError | DuplicateCommandError | { request: AppendRequest; firstEvent: number };

export const commandKey = (stream: StreamId, commandId: string) => `${streamKey(stream)}\u0000${commandId}`;

/**
 * Decides a batch of appends in order, each as if it ran alone after the ones before it (so two
 * appends to one stream in a batch chain, and a command id repeated in a batch is a duplicate).
 * Refused appends write nothing; the accepted ones become the rows to insert, in this order.
 */
export class AppendPlan {
  readonly events: PlannedEvent[] = [];
  readonly commands: PlannedCommand[] = [];
  private readonly decisions: Decision[] = [];

  constructor(requests: readonly AppendRequest[], stored: StoredState) {
    const sequences = new Map<string, number>();
    const commands = new Set<string>();
    for (const request of requests) {
      const { stream, expectedSequence, commandId, events } = request;
      const key = streamKey(stream);
      const repeated =
        commandId !== undefined && (commands.has(commandKey(stream, commandId)) || stored.commandRecorded(stream, commandId));
      if (repeated) {
        this.decisions.push(new DuplicateCommandError(stream, commandId as string));
        continue;
      }
      const sequence = sequences.get(key) ?? stored.sequence(stream);
      if (sequence !== expectedSequence) {
        sequences.set(key, sequence);
        this.decisions.push(new ConcurrencyError(stream, expectedSequence, sequence));
        continue;
      }
      const after = sequence + events.length;
      sequences.set(key, after);
      if (commandId !== undefined) {
        commands.add(commandKey(stream, commandId));
        this.commands.push({
          stream,
          commandId,
          fingerprint: request.commandFingerprint ?? null,
          sequenceBefore: sequence,
          sequenceAfter: after,
        });
      }
      this.decisions.push({ request, firstEvent: this.events.length });
      const now = new Date();
      events.forEach((event, index) => {
        this.events.push({ stream, sequence: sequence + 1 + index, event, occurredAt: event.occurredAt ?? now });
      });
    }
  }

  /** One outcome per request, given the positions the planned events got (in plan order). */
  outcomes(positions: readonly number[]): AppendOutcome[] {
    return this.decisions.map((decision) => {
      if (decision instanceof Error) return decision;
      const { request, firstEvent } = decision;
      const stored = this.events
        .slice(firstEvent, firstEvent + request.events.length)
        .map((planned, index): StoredEvent => ({
          position: positions[firstEvent + index],
          aggregateType: planned.stream.aggregateType,
          aggregateId: planned.stream.aggregateId,
          sequence: planned.sequence,
          type: planned.event.type,
          schemaVersion: planned.event.schemaVersion ?? 1,
          payload: planned.event.payload ?? null,
          metadata: planned.event.metadata,
          occurredAt: planned.occurredAt,
        }));
      return { stream: request.stream, sequence: request.expectedSequence + stored.length, events: stored };
    });
  }
}
