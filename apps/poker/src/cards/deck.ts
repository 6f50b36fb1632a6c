import { randomUUID } from 'node:crypto';
import { RANKS, SUITS, type Card } from './card.js';

export type Seed = string | number;

/** The 52 cards in a fixed order: 2c 3c .. Ac 2d .. As. */
export function newDeck(): Card[] {
  return [...SUITS].flatMap((suit) => [...RANKS].map((rank) => rank + suit));
}

/** A fresh deck shuffled by Fisher-Yates over a PRNG seeded from `seed`: same seed, same deck. */
export function shuffledDeck(seed: Seed): Card[] {
  const random = mulberry32(fnv1a(String(seed)));
  const deck = newDeck();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** For hands dealt without a seed; the caller records it so replays see the same deck. */
export function randomSeed(): string {
  return randomUUID();
}

/** 32-bit FNV-1a: spreads any seed string over the PRNG's state. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: tiny, fast, good enough for shuffling (not for real-money security). */
function mulberry32(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
