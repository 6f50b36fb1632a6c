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
});
