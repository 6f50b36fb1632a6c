export type DeadLetterKind = 'command' | 'event';
export type DeadLetterStatus = 'pending' | 'retried' | 'discarded';

/** A command parked by the MANUAL merge strategy, or an event a subscriber kept failing on. */
export interface DeadLetter {
  id: string;
  kind: DeadLetterKind;
  /** Subscriber name for events; null for commands. */
  subscriber: string | null;
  aggregateType: string;
  aggregateId: string;
  /** Command type (commands) or event type (events). */
  messageType: string;
  payload: unknown;
  /** Commands: send options (command id, correlation id, ...); events: the stored event's position and metadata. */
  context: Record<string, unknown>;
  reason: string;
  attempts: number;
  status: DeadLetterStatus;
  createdAt: Date;
  updatedAt: Date;
}

export type NewDeadLetter = Omit<DeadLetter, 'id' | 'status' | 'createdAt' | 'updatedAt'>;

/** Which letters `list` returns, oldest first (by creation time, then id). */
export interface DeadLetterQuery {
  status?: DeadLetterStatus;
  kind?: DeadLetterKind;
  subscriber?: string;
  /** Only the letters of one aggregate (both given). */
  aggregateType?: string;
  aggregateId?: string;
  /** Only letters listed after this one: the last letter of the previous page. */
  after?: Pick<DeadLetter, 'createdAt' | 'id'>;
  /** At most this many (default: all). */
  limit?: number;
}

export interface DeadLetterStore {
  add(entry: NewDeadLetter): Promise<DeadLetter>;
  list(query?: DeadLetterQuery): Promise<DeadLetter[]>;
  get(id: string): Promise<DeadLetter | null>;
  /** Moves a pending entry to `status`; false when it was not pending (already handled by someone else). */
  resolve(id: string, status: Exclude<DeadLetterStatus, 'pending'>, reason?: string): Promise<boolean>;
}

export const DEAD_LETTER_STORE = Symbol('DEAD_LETTER_STORE');
