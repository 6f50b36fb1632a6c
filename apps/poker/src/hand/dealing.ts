import { InvalidArgumentError } from '@nest-es/core';
import { type Card, HOLE_CARDS, randomSeed, shuffledDeck, type Variant } from '../cards/index.js';
import type { DealCards, DealtPlayer } from './hand.commands.js';
import { CardsDealt, type DealtHand } from './hand.events.js';

/** The explicit deck if given, else one shuffled from the seed (a random one if none), then the hole cards. */
export function dealCards(command: DealCards): CardsDealt {
  if (new Set(command.players.map((p) => p.playerId)).size !== command.players.length) {
    throw new InvalidArgumentError(`players must be distinct, got ${command.players.map((p) => p.playerId).join(', ')}`);
  }
  const positions = command.players.map((p) => p.position);
  if (new Set(positions).size !== positions.length) throw new InvalidArgumentError(`positions must be distinct, got ${positions.join(', ')}`);
  if (!positions.includes(command.dealerPosition)) {
    throw new InvalidArgumentError(`dealerPosition ${command.dealerPosition} is not one of the players' positions ${positions.join(', ')}`);
  }
  if (command.smallBlind > command.bigBlind) {
    throw new InvalidArgumentError(`smallBlind ${command.smallBlind} must not exceed bigBlind ${command.bigBlind}`);
  }
  const seed = command.deck ? null : (command.seed ?? randomSeed());
  const deck = command.deck ? [...command.deck] : shuffledDeck(seed!);
  const players = holeCardsRoundRobin(command.variant, command.players, deck);
  const { tableId, handNumber, variant, dealerPosition, smallBlind, bigBlind } = command;
  return new CardsDealt(tableId, handNumber, variant, players, deck.slice(players.length * HOLE_CARDS[variant]), dealerPosition, smallBlind, bigBlind, seed);
}

/** One card at a time to each player in turn, off the top of the deck, no burn cards. */
function holeCardsRoundRobin(variant: Variant, players: DealtPlayer[], deck: Card[]): DealtHand[] {
  const hands: DealtHand[] = players.map(({ playerId, position, stack }) => ({ playerId, position, stack, holeCards: [] }));
  for (let round = 0; round < HOLE_CARDS[variant]; round++) {
    hands.forEach((hand, i) => hand.holeCards.push(deck[round * hands.length + i]));
  }
  return hands;
}

/** A hand after a draw: each discarded card replaced, in place, by the card drawn for it. */
export function drawnHand(holeCards: readonly Card[], discarded: readonly Card[], drawn: readonly Card[]): Card[] {
  return holeCards.map((card) => (discarded.includes(card) ? drawn[discarded.indexOf(card)] : card));
}
