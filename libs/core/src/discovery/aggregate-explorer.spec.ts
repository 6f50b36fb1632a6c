import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Aggregate, Apply, CommandHandler } from '../index.js';
import { MergeStrategy } from '../model/merge-strategy.js';
import { bootFailure, bootRegistry } from '../../../../test/support/boot-registry.js';

class Open {}
class Close {}
class Opened {}
class Closed {}

@Aggregate('door')
class Door {
  initialState() {
    return { open: false };
  }
  @CommandHandler(Open, { emits: [Opened] })
  open() {
    return new Opened();
  }
  @Apply(Opened)
  onOpened(state: { open: boolean }) {
    state.open = true;
  }
}

describe('AggregateExplorer (boot validation through DiscoveryService)', () => {
  it('registers a valid aggregate with its handlers and appliers', async () => {
    const registry = await bootRegistry(Door);
    expect(registry.aggregate('door')?.classRef).toBe(Door);
    expect(registry.commandsByType.get('Open')?.location).toBe('Door.open');
    expect(registry.eventClass('Opened')).toBe(Opened);
  });

  it('fails on two handlers for one command, naming both', async () => {
    @Aggregate('window')
    class Window {
      initialState() {
        return {};
      }
      @CommandHandler(Open, { emits: [Closed] })
      openWindow() {
        return new Closed();
      }
      @Apply(Closed)
      onClosed() {}
    }
    expect(await bootFailure(Door, Window)).toContain('command Open has two handlers: Door.open and Window.openWindow');
  });

  it('fails on an emitted event without an applier', async () => {
    @Aggregate('gate')
    class Gate {
      initialState() {
        return {};
      }
      @CommandHandler(Close, { emits: [Closed] })
      close() {
        return new Closed();
      }
    }
    expect(await bootFailure(Gate)).toContain('event Closed emitted by Gate.close has no @Apply(Closed) method in Gate');
  });

  it('fails on an aggregate type used twice', async () => {
    @Aggregate('door')
    class OtherDoor {
      initialState() {
        return {};
      }
    }
    expect(await bootFailure(Door, OtherDoor)).toContain("aggregate type 'door' is used twice: by Door and OtherDoor");
  });

  it('fails on a handler outside an aggregate', async () => {
    @Injectable()
    class Service {
      @CommandHandler(Close, { emits: [Closed] })
      close() {}
    }
    expect(await bootFailure(Door, Service)).toContain('Service.close is a @CommandHandler/@Apply outside an @Aggregate class');
  });

  it('fails on AGGREGATE_HANDLES without a merge handler, and on missing emits', async () => {
    @Aggregate('lock', { mergeStrategy: MergeStrategy.AGGREGATE_HANDLES })
    class Lock {
      initialState() {
        return {};
      }
      @CommandHandler(Close, { emits: [] })
      close() {}
    }
    const message = await bootFailure(Lock);
    expect(message).toContain('Lock uses merge strategy AGGREGATE_HANDLES but has no @MergeHandler() method');
    expect(message).toContain('Lock.close must declare the events it emits');
  });
});
