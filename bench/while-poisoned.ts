import type { INestApplicationContext } from '@nestjs/common';
import { CHECKPOINT_STORE, DEAD_LETTER_STORE } from '@nest-es/core/internal';
import type { CheckpointStore, DeadLetterStore } from '@nest-es/core/adapter';

/** A new poison event this often, so that one is being retried during the whole measurement. */
const POISON_EVERY_MS = 250;

/** What a poisoned measurement gave, and what the poison was doing by its end. */
export interface Poisoned<T> {
  measured: T;
  /** Poison events sent during the measurement, and how many of them were dead-lettered by its end. */
  poisonEvents: number;
  deadLettered: number;
  /** Events still held (being retried, or waiting behind one) at the end: more than 0 means the poison was live throughout. */
  heldAtEnd: number;
}

/**
 * Runs `measure` while `sendPoison` sends a poison command now and every POISON_EVERY_MS, so that
 * one is being retried all along (the first has failed once before `measure` starts).
 */
export async function whilePoisoned<T>(app: INestApplicationContext, sendPoison: () => Promise<unknown>, measure: () => Promise<T>): Promise<Poisoned<T>> {
  let poisonEvents = 0;
  let poisoning = true;
  const loop = (async () => {
    while (poisoning) {
      await sendPoison();
      poisonEvents++;
      await new Promise((resolve) => setTimeout(resolve, POISON_EVERY_MS));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const measured = await measure();
  poisoning = false;
  await loop;
  const deadLettered = (await app.get<DeadLetterStore>(DEAD_LETTER_STORE).list({ kind: 'event' })).length;
  const heldAtEnd = (await app.get<CheckpointStore>(CHECKPOINT_STORE).loadHeld()).length;
  return { measured, poisonEvents, deadLettered, heldAtEnd };
}
