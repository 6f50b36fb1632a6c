/** What the command pipeline keeps of a send besides the command, so a parked command can be re-sent as itself. */
export interface SendContext {
  commandId: string;
  correlationId: string;
  causationId: string | null;
  metadata: Record<string, unknown>;
}

/** The `context` of a dead letter of kind 'command' (MANUAL merge). */
export interface ParkedCommandContext extends SendContext {
  /** The sequence the caller decided on. */
  expectedSequence: number;
  /** The aggregate's sequence when the command was parked. */
  actualSequence: number;
}
