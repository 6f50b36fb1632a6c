import 'reflect-metadata';
import { Aggregate, Apply, CommandHandler, OnEvent, ProcessManager, Projector, Saga } from '../index.js';
import { bootFailure, bootRegistry } from '../../../../test/support/boot-registry.js';

class Ring {}
class Rang {}
class Unstored {}
class Noted {}

@Aggregate('bell')
class Bell {
  initialState() {
    return {};
  }
  @CommandHandler(Ring, { emits: [Rang] })
  ring() {
    return new Rang();
  }
  @Apply(Rang)
  onRang() {}
}

describe('SubscriberExplorer (boot validation)', () => {
  it('registers projectors, sagas and process managers by the events they handle', async () => {
    @Projector('bell-view')
    class BellView {
      @OnEvent(Rang) onRang() {}
    }
    @Saga('bell-saga')
    class BellSaga {
      @OnEvent(Rang) onRang() {}
    }
    @ProcessManager('bell-flow', { startsOn: [Rang] })
    class BellFlow {
      initialState() {
        return {};
      }
      @OnEvent(Rang) onRang() {}
      @Apply(Noted) onNoted() {}
    }
    const registry = await bootRegistry(Bell, BellView, BellSaga, BellFlow);
    expect(registry.subscribersOf('Rang').map((s) => `${s.kind}:${s.name}`)).toEqual(['process-manager:bell-flow', 'projector:bell-view', 'saga:bell-saga']);
    expect(registry.subscribers.get('bell-flow')!.process!.aggregate.appliers.has('Noted')).toBe(true);
  });

  it('fails on a duplicate subscriber name, naming both classes', async () => {
    @Projector('same')
    class First {
      @OnEvent(Rang) onRang() {}
    }
    @Saga('same')
    class Second {
      @OnEvent(Rang) onRang() {}
    }
    expect(await bootFailure(Bell, First, Second)).toContain("subscriber name 'same' is used twice: by First and Second");
  });

  it('fails on a handler for an event that no aggregate applies', async () => {
    @Projector('lost')
    class Lost {
      @OnEvent(Unstored) onUnstored() {}
    }
    expect(await bootFailure(Bell, Lost)).toContain("Lost ('lost') handles Unstored, which no aggregate or process manager applies");
  });

  it('fails on a process manager without a start event handler or named like an aggregate', async () => {
    @ProcessManager('bell', { startsOn: [Rang] })
    class Clash {
      initialState() {
        return {};
      }
      @OnEvent(Noted) onNoted() {}
    }
    const message = await bootFailure(Bell, Clash);
    expect(message).toContain("process manager 'bell' (Clash) has the name of an aggregate type");
    expect(message).toContain('Clash starts on Rang but has no @OnEvent(Rang) method');
  });

  it('checks the tables a projector declares for blue/green rebuilds: with createTables, plain names, projectors only', async () => {
    @Projector('bells', { tables: ['bell_rings'] })
    class Rings {
      @OnEvent(Rang) onRang() {}
      async createTables() {}
    }
    expect((await bootRegistry(Bell, Rings)).subscribers.get('bells')!.createTables).toBeDefined();

    @Projector('no-create', { tables: ['bell_rings'] })
    class NoCreate {
      @OnEvent(Rang) onRang() {}
    }
    @Projector('no-tables')
    class NoTables {
      @OnEvent(Rang) onRang() {}
      async createTables() {}
    }
    @Projector('odd-names', { tables: ['Bell-Rings', 'bell_rings', 'bell_rings', 'x'.repeat(41)] })
    class OddNames {
      @OnEvent(Rang) onRang() {}
      async createTables() {}
    }
    @Projector('empty', { tables: [] })
    class Empty {
      @OnEvent(Rang) onRang() {}
      async createTables() {}
    }
    @Saga('saga-tables', { tables: ['bell_log'] })
    class SagaTables {
      @OnEvent(Rang) onRang() {}
    }
    const message = await bootFailure(Bell, NoCreate, NoTables, OddNames, Empty, SagaTables);
    expect(message).toContain("NoCreate ('no-create') declares tables but has no createTables(tx, table) method to create them");
    expect(message).toContain("NoTables ('no-tables') has createTables() but declares no tables: add { tables: [...] } to @Projector");
    expect(message).toContain("OddNames ('odd-names') declares table 'Bell-Rings': use lower-case letters, digits and _ (at most 40), as SQL folds unquoted names");
    expect(message).toContain(`OddNames ('odd-names') declares table '${'x'.repeat(41)}'`);
    expect(message).not.toContain("declares table 'bell_rings'");
    expect(message).toContain("OddNames ('odd-names') declares a table twice");
    expect(message).toContain("Empty ('empty') declares an empty tables list");
    expect(message).toContain("SagaTables ('saga-tables') declares tables, which only projectors have");
  });
});
