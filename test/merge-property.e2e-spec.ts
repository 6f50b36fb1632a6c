import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import { AggregateReader, CommandGateway, EVENT_STORE, EventSourcingError, MergeStrategy, type CommandContext, type EventStore } from '@nest-es/core';
import { DepositFunds, RegisterPlayer, ReleaseFunds, RenamePlayer, ReserveFunds, WithdrawFunds, type PlayerState } from '../apps/poker/src/player/index.js';
import { createMergeApp } from './support/merge-app.js';
import { ledgerViolations, type CommandOutcome } from './support/player-ledger.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { propertyRuns, propertyTimeoutMs } from './support/property-runs.js';
import { EventSourcingRegistry, replay } from '@nest-es/core/internal';

const RUNS = propertyRuns(25);

interface Op {
  kind: 'deposit' | 'withdraw' | 'rename' | 'reserve' | 'release';
  amount: number;
  tableId: string;
  /** Which of the two instances gets it. */
  instance: number;
  /** How far behind the last sequence seen the caller claims to be; null: no Expected-Sequence. */
  staleBy: number | null;
  strategy: MergeStrategy | null;
}

const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('deposit', 'withdraw', 'rename', 'reserve', 'release'),
  amount: fc.integer({ min: 1, max: 400 }),
  tableId: fc.constantFrom('t1', 't2'),
  instance: fc.constantFrom(0, 1),
  staleBy: fc.option(fc.nat({ max: 3 }), { nil: null }),
  strategy: fc.option(fc.constantFrom(MergeStrategy.COMMUTATIVE, MergeStrategy.STRICT, MergeStrategy.MANUAL), { nil: null }),
});

/** Ops in batches: a batch is sent at once (interleaving freely across the two instances), batches one after another. */
const schedule = fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 });

function commandFor(playerId: string, { kind, amount, tableId }: Op): object {
  const command = { deposit: DepositFunds, withdraw: WithdrawFunds, rename: RenamePlayer, reserve: ReserveFunds, release: ReleaseFunds }[kind];
  return Object.assign(new command(), { playerId, amount, tableId, displayName: `n${amount}` });
}

describe('property: random interleavings of player commands with stale sequences and mixed strategies', () => {
  let store: TestStore;
  let apps: INestApplication[];

  beforeAll(async () => {
    store = await createTestStore();
    apps = [await createMergeApp(store.options), await createMergeApp(store.options)];
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await store.cleanup();
  });

  it('keeps state = replay of the stored events, bankroll = deposits - withdrawals, every command decided on fresh state, refused ones without trace', async () => {
    const gateways = apps.map((app) => app.get(CommandGateway));
    const events = apps[0].get<EventStore>(EVENT_STORE);
    const player = apps[0].get(EventSourcingRegistry).aggregate('player')!;
    let run = 0;

    await fc.assert(
      fc.asyncProperty(schedule, async (batches) => {
        const playerId = `prop-${++run}`;
        const commands = new Map<string, object>();
        const outcomes: CommandOutcome[] = [{ commandId: `${playerId}-seed`, commandType: 'DepositFunds', amount: 1000, outcome: 'stored' }];
        await gateways[0].send(Object.assign(new RegisterPlayer(), { playerId, displayName: 'P', email: 'p@example.com' }));
        let seen = (await gateways[1].send(Object.assign(new DepositFunds(), { playerId, amount: 1000 }), { commandId: `${playerId}-seed` })).sequence;

        for (const [b, batch] of batches.entries()) {
          const sequences = await Promise.all(
            batch.map(async (next, i) => {
              const command = commandFor(playerId, next);
              const outcome: CommandOutcome = { commandId: `${playerId}-${b}-${i}`, commandType: command.constructor.name, amount: next.amount, outcome: 'stored' };
              outcomes.push(outcome);
              commands.set(outcome.commandId, command);
              try {
                const result = await gateways[next.instance].send(command, {
                  commandId: outcome.commandId,
                  expectedSequence: next.staleBy === null ? undefined : Math.max(0, seen - next.staleBy),
                  mergeStrategy: next.strategy ?? undefined,
                });
                return result.sequence;
              } catch (error) {
                if (!(error instanceof EventSourcingError)) throw error;
                outcome.outcome = error.code;
                return 0;
              }
            }),
          );
          seen = Math.max(seen, ...sequences);
        }

        const stored = await events.readStream({ aggregateType: 'player', aggregateId: playerId });
        const replayed = replay(player, player.initialState(), stored) as PlayerState;
        for (const app of apps) {
          expect(await app.get(AggregateReader).state('player', playerId)).toEqual({ state: replayed, sequence: stored.length });
        }
        expect(ledgerViolations(stored, outcomes, replayed.bankroll)).toEqual([]);
        // Every stored command was decided on the state right before its events, never on a stale one.
        for (const [commandId, command] of commands) {
          const own = stored.filter((event) => event.metadata.commandId === commandId);
          if (own.length === 0) continue;
          const before = replay(player, player.initialState(), stored.filter((event) => event.sequence < own[0].sequence));
          const handler = player.commandHandlers.get(command.constructor.name)!;
          const decided = [await handler.handle(command, before, {} as CommandContext)].flat() as object[];
          expect(own.map((event) => [event.type, event.payload])).toEqual(decided.map((event) => [event.constructor.name, { ...event }]));
        }
        // Merged commands still ran their business rules on the actual state.
        expect(replayed.available).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: RUNS },
    );
  }, propertyTimeoutMs(RUNS, 1_000));
});
