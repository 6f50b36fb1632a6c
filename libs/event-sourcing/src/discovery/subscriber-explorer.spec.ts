import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import { Aggregate, Apply, CommandHandler, OnEvent, ProcessManager, Projector, Saga } from '../decorators/index.js';
import { EventSourcingModule } from '../module/event-sourcing.module.js';
import { BootValidationError } from './boot-validation.error.js';
import { EventSourcingRegistry } from './event-sourcing-registry.js';

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

async function boot(...providers: any[]) {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ store: { type: 'sqlite', database: ':memory:' }, processing: { enabled: false } })],
    providers: [Bell, ...providers],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  try {
    await app.init();
    return app.get(EventSourcingRegistry);
  } finally {
    await app.close().catch(() => undefined);
  }
}

async function bootFailure(...providers: any[]): Promise<string> {
  const error = await boot(...providers).then(
    () => undefined,
    (e) => e,
  );
  expect(error).toBeInstanceOf(BootValidationError);
  return (error as Error).message;
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
    const registry = await boot(BellView, BellSaga, BellFlow);
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
    expect(await bootFailure(First, Second)).toContain("subscriber name 'same' is used twice: by First and Second");
  });

  it('fails on a handler for an event that no aggregate applies', async () => {
    @Projector('lost')
    class Lost {
      @OnEvent(Unstored) onUnstored() {}
    }
    expect(await bootFailure(Lost)).toContain("Lost ('lost') handles Unstored, which no aggregate or process manager applies");
  });

  it('fails on a process manager without a start event handler or named like an aggregate', async () => {
    @ProcessManager('bell', { startsOn: [Rang] })
    class Clash {
      initialState() {
        return {};
      }
      @OnEvent(Noted) onNoted() {}
    }
    const message = await bootFailure(Clash);
    expect(message).toContain("process manager 'bell' (Clash) has the name of an aggregate type");
    expect(message).toContain('Clash starts on Rang but has no @OnEvent(Rang) method');
  });
});
