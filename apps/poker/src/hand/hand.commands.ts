import { AggregateId } from '@nest-es/core';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateBy,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { CARD_PATTERN, type Card, type Seed, VARIANTS, type Variant } from '../cards/index.js';
import { MAX_CHIPS_PER_COMMAND, MAX_HAND_NUMBER, MAX_TABLE_CHIPS } from '../limits.js';
import { atMostChips, EachEntry, isPositiveChips, MAX_SEATS, positiveChips, says, wholeChips } from '../table/index.js';

export const BETTING_ACTIONS = ['FOLD', 'CHECK', 'CALL', 'BET', 'RAISE', 'ALL_IN'] as const;
export type BettingAction = (typeof BETTING_ACTIONS)[number];
export type BlindType = 'small' | 'big';

const seatRange = says(`a seat from 0 to ${MAX_SEATS - 1}`);
/** Blinds are the table's, within one command's chips; stacks, bets and pots within a table's. */
const maxBlind = atMostChips(MAX_CHIPS_PER_COMMAND);
const maxTableChips = atMostChips(MAX_TABLE_CHIPS);
const handNumberRange = says(`a whole number from 1 to ${MAX_HAND_NUMBER}`);
const fullDeck = says('the full deck: 52 distinct cards such as As or Td');
const countOf = (what: string, min: number, max: number) => ({
  message: ({ value }: { value: unknown }) => `${what} must list ${min} to ${max}, got ${Array.isArray(value) ? value.length : JSON.stringify(value)}`,
});

abstract class HandCommand {
  @AggregateId()
  @IsString()
  handId!: string;
}

export interface DealtPlayer {
  playerId: string;
  position: number;
  stack: number;
}

const isId = (value: unknown) => typeof value === 'string' && value.length > 0 && value.length <= 200;
const isSeat = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) < MAX_SEATS;

export class DealCards extends HandCommand {
  @IsString() @Length(1, 200) tableId!: string;
  @IsInt(handNumberRange) @Min(1, handNumberRange) @Max(MAX_HAND_NUMBER, handNumberRange) handNumber!: number;
  @IsIn([...VARIANTS], says(`one of ${VARIANTS.join(', ')}`)) variant!: Variant;
  /** In dealing order: hole cards go one at a time round-robin in this order. */
  @IsArray(countOf('players', 2, MAX_SEATS))
  @ArrayMinSize(2, countOf('players', 2, MAX_SEATS))
  @ArrayMaxSize(MAX_SEATS, countOf('players', 2, MAX_SEATS))
  @JSONSchema({
    items: {
      type: 'object',
      required: ['playerId', 'position', 'stack'],
      properties: {
        playerId: { type: 'string', minLength: 1, maxLength: 200 },
        position: { type: 'integer', minimum: 0, maximum: MAX_SEATS - 1 },
        stack: { type: 'integer', minimum: 1, maximum: MAX_TABLE_CHIPS },
      },
    },
  })
  @EachEntry('isDealtPlayer', (p) => isId(p.playerId) && isSeat(p.position) && isPositiveChips(p.stack, MAX_TABLE_CHIPS), `a list of {playerId, position 0 to ${MAX_SEATS - 1}, stack > 0}`)
  players!: DealtPlayer[];
  @IsInt(seatRange) @Min(0, seatRange) @Max(MAX_SEATS - 1, seatRange) dealerPosition!: number;
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxBlind) smallBlind!: number;
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxBlind) bigBlind!: number;
  /** Shuffles the deck deterministically; without it (and without `deck`) a random seed is drawn and recorded. */
  @IsOptional()
  @ValidateBy(
    { name: 'isSeed', validator: { validate: (value: unknown) => Number.isSafeInteger(value) || (typeof value === 'string' && value.length > 0 && value.length <= 200) } },
    says('a whole number or a string of 1 to 200 characters'),
  )
  seed?: Seed;
  /** A test hook: the whole deck, top first. Wins over `seed`. */
  @IsOptional()
  @IsArray(fullDeck)
  @ArrayMinSize(52, fullDeck)
  @ArrayMaxSize(52, fullDeck)
  @ArrayUnique(fullDeck)
  @Matches(CARD_PATTERN, { each: true, ...fullDeck })
  deck?: Card[];
}

export class PostBlind extends HandCommand {
  @IsString() @Length(1, 200) playerId!: string;
  @IsIn(['small', 'big'], says("'small' or 'big'")) blindType!: BlindType;
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxBlind) amount!: number;
}

export class PlayerAction extends HandCommand {
  @IsString() @Length(1, 200) playerId!: string;
  @IsIn([...BETTING_ACTIONS], says(`one of ${BETTING_ACTIONS.join(', ')}`)) action!: BettingAction;
  /** BET: the bet; RAISE: how much above the current bet. Ignored by the other actions. */
  @IsOptional() @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_TABLE_CHIPS, maxTableChips) amount?: number;
}

export class DealCommunityCards extends HandCommand {
  @IsInt(says('a whole number of cards')) @IsPositive(says('a positive number of cards')) @Max(5, says('at most 5 cards (the whole board)')) count!: number;
}

export class RequestDraw extends HandCommand {
  @IsString() @Length(1, 200) playerId!: string;
  /** Positions in the player's hand of the cards to replace; empty to stand pat. */
  @IsArray(says('a list of card indices 0 to 4'))
  @ArrayMaxSize(5, says('at most 5 card indices'))
  @ArrayUnique(says('card indices without repeats'))
  @IsInt({ each: true, ...says('card indices 0 to 4') })
  @Min(0, { each: true, ...says('card indices 0 to 4') })
  @Max(4, { each: true, ...says('card indices 0 to 4') })
  discardIndices!: number[];
}

export class RevealCards extends HandCommand {
  @IsString() @Length(1, 200) playerId!: string;
  /** true: give up showing the cards (CardsMucked). Default false. */
  @IsOptional() @IsBoolean(says('true or false')) muck?: boolean;
}

/**
 * Awards the pot by the hand's own cards, once every contender has shown (or one is left). The hand
 * does so itself in the events that end its showdown; the hand flow sends this only for a showdown
 * that ended before it did.
 */
export class AwardPot extends HandCommand {}
