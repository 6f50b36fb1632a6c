// On SQLite, whose driver holds the event loop for every statement, a projector lets the sagas and
// process managers of its process finish their batch before it takes its own, so one projection
// covers a command's event and what a saga's hop appended after it. On PostgreSQL it projects each
// append as it comes, while the saga waits for the database: there the saga's hop is held until the
// projector has the command's event, so the outcome does not depend on which of the two a loaded host
// runs first, and the process's own setting is checked (a projector that waited would still go after
// PROJECTOR_WAIT_CAP_MS). Real store (SQLite, or PostgreSQL with ES_TEST_DB=postgres); the projector's
// transactions are told apart by the `tx` each event gets.
import { IsString } from 'class-validator';
import { Injectable } from '@nestjs/common';
import {
  Aggregate,
  AggregateId,
  Apply,
  type CommandEmission,
  CommandGateway,
  CommandHandler,
  emit,
  OnEvent,
  Projector,
  type ProjectionContext,
  Saga,
  type SagaContext,
  SyncMode,
} from '@nest-es/core';
import { WorkflowActivity } from '@nest-es/core/internal';
import { startProcessManagerApp, type ProcessManagerApp } from './support/process-manager-app.js';
import { testDatabaseKind } from './support/test-store.js';

class OpenTab {
  @AggregateId() @IsString() tabId!: string;
}
class WriteSlip {
  @AggregateId() @IsString() slipId!: string;
  constructor(slipId: string) {
    this.slipId = slipId;
  }
}
class TabOpened {}
class SlipWritten {}

@Aggregate('tab')
class Tab {
  initialState() {
    return {};
  }
  @CommandHandler(OpenTab, { emits: [TabOpened] })
  open() {
    return new TabOpened();
  }
  @Apply(TabOpened) onOpened() {}
}

@Aggregate('slip')
class Slip {
  initialState() {
    return {};
  }
  @CommandHandler(WriteSlip, { emits: [SlipWritten] })
  write() {
    return new SlipWritten();
  }
  @Apply(SlipWritten) onWritten() {}
}

const onPostgres = testDatabaseKind() !== 'sqlite';

/** A hop: each tab opened writes a slip of the same id (on PostgreSQL, once the projector has the tab). */
@Saga('tab-to-slip')
class TabToSlip {
  @OnEvent(TabOpened)
  async onOpened(_event: TabOpened, { envelope }: SagaContext): Promise<CommandEmission> {
    if (onPostgres) await TabLog.projectedTab;
    return emit(WriteSlip, { slipId: envelope.aggregateId });
  }
}

/** Notes, per event it projects, the transaction it got. */
@Injectable()
@Projector('tab-log')
class TabLog {
  static seen: Array<{ type: string; tx: unknown }> = [];
  static projectedTab: Promise<void>;
  static tabProjected: () => void;
  @OnEvent(TabOpened)
  onOpened(_event: TabOpened, { tx }: ProjectionContext) {
    TabLog.seen.push({ type: 'TabOpened', tx });
    TabLog.tabProjected();
  }
  @OnEvent(SlipWritten)
  onWritten(_event: SlipWritten, { tx }: ProjectionContext) {
    TabLog.seen.push({ type: 'SlipWritten', tx });
  }
}

describe('a projector beside a saga in one process', () => {
  let started: ProcessManagerApp;

  beforeEach(async () => {
    TabLog.seen = [];
    TabLog.projectedTab = new Promise((resolve) => (TabLog.tabProjected = resolve));
    started = await startProcessManagerApp(Tab, Slip, TabToSlip, TabLog);
  });

  afterEach(() => started.close());

  it(
    !onPostgres
      ? "waits for the saga's hop on SQLite: the command's event and the slip are projected in one transaction"
      : 'projects each append as it comes on PostgreSQL: the command\'s event first, the slip in a transaction of its own',
    async () => {
      await started.app.get(CommandGateway).send(Object.assign(new OpenTab(), { tabId: 'tab-1' }), { syncMode: SyncMode.CASCADE });
      expect(TabLog.seen.map((seen) => seen.type)).toEqual(['TabOpened', 'SlipWritten']);
      const [opened, written] = TabLog.seen;
      expect(opened.tx === written.tx).toBe(!onPostgres);
      expect(started.app.get(WorkflowActivity).projectorsWait).toBe(!onPostgres);
    },
  );
});
