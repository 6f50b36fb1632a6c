import { Aggregate, AggregateId, Apply, CommandHandler, MergeStrategy } from '@nest-es/core';
import { IsOptional, IsString } from 'class-validator';
import { passGate } from './gate.js';

/** MANUAL: an edit made on an old revision is parked in the dead-letter table for a reviewer. */
abstract class DocumentCommand {
  @AggregateId() @IsString() documentId!: string;
  @IsOptional() @IsString() gate?: string;
}

export class EditDocument extends DocumentCommand {
  @IsString() text!: string;
}

export class DocumentEdited {
  constructor(readonly text: string) {}
}

export interface DocumentState {
  text: string;
  revisions: number;
}

@Aggregate('document', { mergeStrategy: MergeStrategy.MANUAL })
export class DocumentAggregate {
  initialState(): DocumentState {
    return { text: '', revisions: 0 };
  }

  @CommandHandler(EditDocument, { emits: [DocumentEdited] })
  async edit(command: EditDocument): Promise<DocumentEdited> {
    await passGate(command.gate);
    return new DocumentEdited(command.text);
  }

  @Apply(DocumentEdited)
  onEdited(state: DocumentState, event: DocumentEdited): void {
    state.text = event.text;
    state.revisions++;
  }
}
