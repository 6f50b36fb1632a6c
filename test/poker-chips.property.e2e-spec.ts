import fc from 'fast-check';
import { AggregateReader } from '@nest-es/core';
import { VARIANTS, type Variant } from '../apps/poker/src/cards/index.js';
import { type CommandAnswer, PokerApiError } from '../apps/poker/src/client/poker-client.js';
import type { HandState } from '../apps/poker/src/hand/index.js';
import type { BuyInOutcome } from '../apps/poker/src/http/buy-in.dto.js';
import { eventually } from './support/poker-server.js';
import { usePokerServer } from './support/poker-server-suite.js';
import { propertyRuns, propertyTimeoutMs } from './support/property-runs.js';

const RUNS = propertyRuns(12);

/** One random step: a legal move, an illegal one, or the same legal move sent twice at once. */
interface Step {
  kind: 'legal' | 'illegal' | 'race';
  pick: number;
  amount: number;
}

interface Game {
  variant: Variant;
  seed: number;
  buyIns: number[];
  hands: number;
  steps: Step[];
  /** Between hands: withdrawals from a bankroll, and top-ups of a stack from it. */
  cashier: Array<{ player: number; amount: number; topUp: boolean }>;
}

type Refusal = 'INVALID_ARGUMENT' | 'FAILED_PRECONDITION';
interface Attempt {
  command: 'PlayerAction' | 'RequestDraw' | 'RevealCards';
  body: Record<string, unknown>;
  /** Absent: the move is legal and must be accepted. */
  refused?: Refusal;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom<Step['kind']>('legal', 'legal', 'legal', 'illegal', 'illegal', 'race'),
  pick: fc.nat(1000),
  amount: fc.nat(1000),
});

const gameArb: fc.Arbitrary<Game> = fc.record({
  variant: fc.constantFrom(...VARIANTS),
  seed: fc.nat(),
  buyIns: fc.array(fc.integer({ min: 100, max: 600 }), { minLength: 2, maxLength: 4 }),
  hands: fc.integer({ min: 1, max: 3 }),
  steps: fc.array(stepArb, { minLength: 10, maxLength: 40 }),
  cashier: fc.array(fc.record({ player: fc.nat(3), amount: fc.integer({ min: 1, max: 1500 }), topUp: fc.boolean() }), { maxLength: 3 }),
});

/** The moves open to the player on turn, given the hand as the write side has it. */
function legalMoves(hand: HandState, step: Step): Attempt[] {
  const me = hand.players.find((p) => p.playerId === hand.actionOn)!;
  const toCall = hand.currentBet - me.betThisRound;
  // Checking or calling twice as likely as the rest, so hands reach the later streets.
  const passive: Attempt = { command: 'PlayerAction', body: { action: toCall === 0 ? 'CHECK' : 'CALL' } };
  const moves: Attempt[] = [passive, passive, { command: 'PlayerAction', body: { action: 'FOLD' } }, { command: 'PlayerAction', body: { action: 'ALL_IN' } }];
  const room = me.stack - toCall - hand.minRaise;
  if (room >= 0) moves.push({ command: 'PlayerAction', body: { action: hand.currentBet === 0 ? 'BET' : 'RAISE', amount: hand.minRaise + (step.amount % (room + 1)) } });
  return moves.map((move) => ({ ...move, body: { playerId: me.playerId, ...move.body } }));
}

/** Moves the rules refuse right now, each with the code it must be refused with. */
function illegalMoves(hand: HandState): Attempt[] {
  const me = hand.players.find((p) => p.playerId === hand.actionOn)!;
  const toCall = hand.currentBet - me.betThisRound;
  const open = hand.currentBet === 0 ? 'BET' : 'RAISE';
  const act = (body: Record<string, unknown>, refused: Refusal): Attempt => ({ command: 'PlayerAction', body: { playerId: me.playerId, ...body }, refused });
  const moves: Attempt[] = [
    act({ action: toCall === 0 ? 'CALL' : 'CHECK' }, 'INVALID_ARGUMENT'),
    act({ action: hand.currentBet === 0 ? 'RAISE' : 'BET', amount: hand.minRaise }, 'INVALID_ARGUMENT'),
    act({ action: open }, 'INVALID_ARGUMENT'),
    act({ action: open, amount: me.stack + 1 }, 'FAILED_PRECONDITION'),
    act({ action: open, amount: 0 }, 'INVALID_ARGUMENT'),
    act({ action: 'SHOVE' }, 'INVALID_ARGUMENT'),
    {
      command: 'RequestDraw',
      body: { playerId: me.playerId, discardIndices: [0] },
      refused: hand.variant === 'FIVE_CARD_DRAW' ? 'FAILED_PRECONDITION' : 'INVALID_ARGUMENT',
    },
    ...hand.players.filter((p) => p !== me).map((other) => ({ command: 'PlayerAction' as const, body: { playerId: other.playerId, action: 'FOLD' }, refused: 'FAILED_PRECONDITION' as const })),
  ];
  if (toCall + hand.minRaise - 1 < me.stack && hand.minRaise > 1) moves.push(act({ action: open, amount: hand.minRaise - 1 }, 'INVALID_ARGUMENT'));
  return moves;
}

/** Players still in, in turn order from the first left of the dealer. */
function inTurnOrder(hand: HandState): HandState['players'] {
  const still = hand.players.filter((p) => !p.folded).sort((a, b) => a.position - b.position);
  const first = still.findIndex((p) => p.position > hand.dealerPosition);
  return first <= 0 ? still : [...still.slice(first), ...still.slice(0, first)];
}

/** In the draw: the player whose turn it is exchanges some cards, or someone breaks a rule of drawing (drawing out of turn among them). */
function drawMoves(hand: HandState, step: Step): Attempt[] {
  const toDraw = inTurnOrder(hand).filter((p) => !p.hasDrawn);
  const playerId = toDraw[0].playerId;
  if (step.kind !== 'illegal') {
    return [{ command: 'RequestDraw', body: { playerId, discardIndices: [0, 1, 2, 3, 4].filter((i) => step.amount & (1 << i)) } }];
  }
  return [
    { command: 'RequestDraw', body: { playerId, discardIndices: [1, 1] }, refused: 'INVALID_ARGUMENT' },
    { command: 'RequestDraw', body: { playerId, discardIndices: [5] }, refused: 'INVALID_ARGUMENT' },
    { command: 'PlayerAction', body: { playerId, action: 'CHECK' }, refused: 'FAILED_PRECONDITION' },
    ...hand.players.filter((p) => p.folded || p.hasDrawn).map((p) => ({ command: 'RequestDraw' as const, body: { playerId: p.playerId, discardIndices: [] }, refused: 'FAILED_PRECONDITION' as const })),
    ...toDraw.slice(1).map((p) => ({ command: 'RequestDraw' as const, body: { playerId: p.playerId, discardIndices: [] }, refused: 'FAILED_PRECONDITION' as const })),
  ];
}

/** At the showdown: the player whose turn it is (a hand that cannot win yet) shows or mucks, or someone else tries out of turn. */
function showdownMoves(hand: HandState, step: Step): Attempt[] {
  const playerId = hand.actionOn!;
  if (step.kind !== 'illegal') return [{ command: 'RevealCards', body: { playerId, muck: step.amount % 2 === 0 } }];
  return hand.players.filter((p) => p.playerId !== playerId).map((p) => ({ command: 'RevealCards' as const, body: { playerId: p.playerId, muck: step.amount % 2 === 0 }, refused: 'FAILED_PRECONDITION' as const }));
}

describe('chips are conserved and every illegal move is refused with a code (property)', () => {
  const suite = usePokerServer();
  let run = 0;

  /** The whole hand, as the referee sees it (over HTTP a reader sees only their own cards). */
  const handState = async (handId: string) => (await suite.server.app.get(AggregateReader).state('hand', handId)) as { state: HandState; sequence: number };

  /** Sends a move; a refused one must carry the expected code and leave the hand as it was. */
  async function attempt(handId: string, move: Attempt): Promise<void> {
    const before = move.refused ? (await handState(handId)).sequence : 0;
    const sent = await suite.client
      .command('hand', handId, move.command, move.body, { 'Sync-Mode': 'cascade' })
      .catch((error: unknown) => error);
    if (!move.refused) {
      expect(sent).not.toBeInstanceOf(Error);
      return;
    }
    expect(sent).toBeInstanceOf(PokerApiError);
    const error = sent as PokerApiError;
    expect({ move: move.body, code: error.body.code }).toEqual({ move: move.body, code: move.refused });
    expect(error.body.message).toEqual(expect.any(String));
    expect((await handState(handId)).sequence).toBe(before);
  }

  /**
   * The same legal move twice at once, each sent on the hand as the player saw it (Expected-Sequence):
   * exactly one lands, the other is refused, the hand having moved on. Without it the copy may land
   * too, when the move hands the turn back to the same player (a heads-up round closed by the big
   * blind, who acts first on the street the hand deals at once).
   */
  async function race(handId: string, move: Attempt): Promise<void> {
    const seen = String((await handState(handId)).sequence);
    const send = () => suite.client.command('hand', handId, move.command, move.body, { 'Sync-Mode': 'cascade', 'Expected-Sequence': seen }).catch((e: unknown) => e);
    const outcomes = await Promise.all([send(), send()]);
    const refused = outcomes.filter((o): o is PokerApiError => o instanceof PokerApiError);
    expect(outcomes.filter((o) => !(o instanceof Error)) as CommandAnswer[]).toHaveLength(1);
    expect(refused.map((e) => e.body.code)).toEqual(['SEQUENCE_MISMATCH']);
  }

  async function playHand(tableId: string, seed: string, steps: Step[]): Promise<boolean> {
    const started = await suite.client.startHand(tableId, seed).catch((error: unknown) => error);
    if (started instanceof PokerApiError) {
      // Fewer than two players have chips left: the game is over.
      expect(started.body).toMatchObject({ code: 'FAILED_PRECONDITION', message: expect.stringMatching(/at least 2 players/) });
      return false;
    }
    const { handId } = started as { handId: string };
    for (let i = 0; i < 300; i++) {
      const { state: hand } = await handState(handId);
      if (hand.status === 'complete') break;
      const step = steps[i % steps.length];
      if (hand.status === 'drawing') {
        const moves = drawMoves(hand, step);
        await attempt(handId, moves[step.pick % moves.length]);
      } else if (hand.status === 'showdown' && hand.actionOn) {
        const moves = showdownMoves(hand, step);
        await attempt(handId, moves[step.pick % moves.length]);
      } else if (hand.status === 'betting') {
        const moves = step.kind === 'illegal' ? illegalMoves(hand) : legalMoves(hand, step);
        const move = moves[step.pick % moves.length];
        await (step.kind === 'race' ? race(handId, move) : attempt(handId, move));
      } else {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    await eventually(() => suite.client.table(tableId), (view) => view.status === 'waiting', `hand ${handId} ends`);
    return true;
  }

  it('holds for random seeded games', async () => {
    await fc.assert(
      fc.asyncProperty(gameArb, async (game) => {
        const tableId = `prop-${++run}`;
        const players = game.buyIns.map((_, i) => `p${run}-${i}`);
        let bank = 0;
        await suite.client.createTable(tableId, { name: tableId, variant: game.variant, smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6 });
        for (const [i, id] of players.entries()) {
          await suite.client.registerPlayer(id, id);
          bank += 1000;
          expect(await suite.client.buyIn(tableId, id, game.buyIns[i])).toMatchObject({ status: 'COMPLETED' });
        }

        /** At a quiet point every chip is either available in a bankroll or in a stack at the table. */
        const expectConserved = async () => {
          const balances = await Promise.all(players.map((id) => suite.client.balance(id)));
          const view = await suite.client.table(tableId);
          const available = balances.reduce((sum, b) => sum + b.available, 0);
          expect(available + view.seats.reduce((sum, s) => sum + s.stack, 0)).toBe(bank);
        };

        for (let hand = 1; hand <= game.hands; hand++) {
          for (const move of game.cashier) {
            const playerId = players[move.player % players.length];
            const { available } = await suite.client.balance(playerId);
            if (move.topUp) {
              // Up to the table's maxBuyIn (1000), through the buy-in flow: the chips move from the bankroll to the stack.
              const stack = (await suite.client.table(tableId)).seats.find((seat) => seat.playerId === playerId)!.stack;
              const outcome = await suite.client
                .request<BuyInOutcome>('POST', `/tables/${tableId}/top-up`, { playerId, amount: move.amount }, suite.client.signedAs(playerId))
                .catch((error: PokerApiError) => error);
              if (move.amount > available) expect(outcome).toMatchObject({ status: 409, body: { code: 'FAILED_PRECONDITION' } });
              else expect(outcome).toMatchObject(stack + move.amount > 1000 ? { status: 'FAILED', code: 'INVALID_AMOUNT' } : { status: 'COMPLETED' });
              continue;
            }
            const sent = await suite.client
              .command('player', playerId, 'WithdrawFunds', { amount: move.amount }, { 'Sync-Mode': 'simple' })
              .catch((error: PokerApiError) => error);
            if (move.amount <= available) {
              expect(sent).not.toBeInstanceOf(Error);
              bank -= move.amount;
            } else {
              expect(sent).toMatchObject({ status: 409, body: { code: 'FAILED_PRECONDITION', message: `insufficient funds: available ${available}, requested ${move.amount}` } });
            }
          }
          await expectConserved();
          if (!(await playHand(tableId, `${game.seed}-${hand}`, game.steps))) break;
          await expectConserved();
        }

        for (const id of players) await suite.client.leave(tableId, id);
        const balances = await Promise.all(players.map((id) => suite.client.balance(id)));
        expect(balances.every((b) => b.reserved === 0)).toBe(true);
        expect(balances.reduce((sum, b) => sum + b.bankroll, 0)).toBe(bank);
      }),
      { numRuns: RUNS },
    );
  }, propertyTimeoutMs(RUNS, 1_000));
});
