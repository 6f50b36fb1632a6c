import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Aggregate, AggregateId, Apply, CommandHandler, PermissionDeniedError, type ReadContext, type StoredEvent, UnauthenticatedError } from '@nest-es/core';
import { IsBoolean, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

/**
 * A journal readable by its events only by its owner, the part of its id before the first '-'
 * (`ann-diary` is ann's); private entries are hidden from every reader. For the read routes' guards and views.
 */
export class WriteEntry {
  @AggregateId() @IsString() journalId!: string;
  @IsString() text!: string;
  @IsOptional() @IsBoolean() private?: boolean;
  /** The entry this many times over, in one append (bulk, for backpressure). */
  @IsOptional() @IsInt() @Min(1) @Max(100) copies?: number;

  constructor(journalId: string, text: string, options: { private?: boolean; copies?: number } = {}) {
    this.journalId = journalId;
    this.text = text;
    this.private = options.private;
    this.copies = options.copies;
  }
}

export class EntryWritten {
  constructor(readonly text: string) {}
}

export class PrivateEntryWritten {
  constructor(readonly text: string) {}
}

/** The view of a journal's events: the owner only, private entries never. */
export function journalEventView(event: StoredEvent, reader: ReadContext): unknown {
  const owner = reader.aggregateId.split('-')[0];
  if (reader.principal?.id !== owner) throw new PermissionDeniedError(`only ${owner} may read this journal`);
  return event.type === 'PrivateEntryWritten' ? undefined : event.payload;
}

@Aggregate('journal', { view: { event: journalEventView } })
export class JournalAggregate {
  initialState(): { entries: number } {
    return { entries: 0 };
  }

  @CommandHandler(WriteEntry, { emits: [EntryWritten, PrivateEntryWritten] })
  write(command: WriteEntry): Array<EntryWritten | PrivateEntryWritten> {
    return Array.from({ length: command.copies ?? 1 }, () => (command.private ? new PrivateEntryWritten(command.text) : new EntryWritten(command.text)));
  }

  @Apply(EntryWritten)
  onWritten(state: { entries: number }): void {
    state.entries++;
  }

  @Apply(PrivateEntryWritten)
  onPrivateWritten(state: { entries: number }): void {
    state.entries++;
  }
}

/** Authenticates `X-User: <id>`; a request without one is refused with 401. */
@Injectable()
export class JournalReaderGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; user?: unknown }>();
    const user = request.headers['x-user'];
    if (!user) throw new UnauthenticatedError('send X-User');
    request.user = { id: user };
    return true;
  }
}
