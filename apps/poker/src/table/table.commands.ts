import { AggregateId } from '@nest-es/core';
import { IsIn, IsInt, IsObject, IsOptional, IsPositive, IsString, Length, Matches, Max, Min, ValidateBy } from 'class-validator';
import { VARIANTS, type Variant } from '../cards/index.js';
import { MAX_CHIPS_PER_COMMAND, MAX_SEATS, MAX_TABLE_CHIPS } from '../limits.js';
import { atMostChips, positiveChips, says, wholeChips } from './command-validation.js';

export { MAX_SEATS } from '../limits.js';
const maxChips = atMostChips(MAX_CHIPS_PER_COMMAND);
export const DEFAULT_ACTION_TIMEOUT_MS = 30_000;
/** How long a bot takes over its move, unless the table says otherwise. */
export const DEFAULT_BOT_DELAY_MS = 800;
const timeoutRange = says('between 1000 and 600000 milliseconds');
const delayRange = says('between 0 and 60000 milliseconds');
const seatRange = says(`a seat from 0 to ${MAX_SEATS - 1}, or -1 for any free seat`);

abstract class TableCommand {
  @AggregateId()
  @IsString()
  tableId!: string;
}

export class CreateTable extends TableCommand {
  @IsString() @Length(1, 100) @Matches(/\S/, says('a non-blank name')) name!: string;
  @IsIn([...VARIANTS], says(`one of ${VARIANTS.join(', ')}`)) variant!: Variant;
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxChips) smallBlind!: number;
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxChips) bigBlind!: number;
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxChips) minBuyIn!: number;
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxChips) maxBuyIn!: number;
  @IsInt(says('a whole number')) @Min(2, says(`from 2 to ${MAX_SEATS}`)) @Max(MAX_SEATS, says(`from 2 to ${MAX_SEATS}`)) maxPlayers!: number;
  /** How long the hand flow waits for a player before checking or folding for them. */
  @IsOptional() @IsInt(timeoutRange) @Min(1000, timeoutRange) @Max(600_000, timeoutRange) actionTimeoutMs?: number;
  /** How long the server lets a bot think before it moves for it; less than actionTimeoutMs. */
  @IsOptional() @IsInt(delayRange) @Min(0, delayRange) @Max(60_000, delayRange) botDelayMs?: number;
}

export class JoinTable extends TableCommand {
  @IsString() @Length(1, 200) playerId!: string;
  @IsInt(seatRange) @Min(-1, seatRange) @Max(MAX_SEATS - 1, seatRange) seat!: number;
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxChips) buyIn!: number;
}

/** Chips from the player's bankroll, already reserved for the table (the top-up route's flow sends it). */
export class TopUp extends TableCommand {
  @IsString() @Length(1, 200) playerId!: string;
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxChips) amount!: number;
}

export class LeaveTable extends TableCommand {
  @IsString() @Length(1, 200) playerId!: string;
}

export class StartHand extends TableCommand {
  /** Reproducible deals (tests, the demo): the hand's deck is shuffled from this seed; without it, at random. */
  @IsOptional() @IsString() @Length(1, 200) seed?: string;
}

export class EndHand extends TableCommand {
  @IsString() @Length(1, 300) handId!: string;
  /** playerId -> chips won (positive) or lost (negative) in the hand: at most a table's chips either way. */
  @IsObject(says('an object of playerId to chip change'))
  @ValidateBy({ name: 'isWithinTableChips', validator: { validate: withinTableChips } }, says(`chip changes from -${MAX_TABLE_CHIPS} to ${MAX_TABLE_CHIPS}`))
  stackChanges!: Record<string, number>;
}

/** No change beyond what a table can hold; the aggregate names a change that is not a whole number. */
function withinTableChips(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.values(value).every((change) => typeof change !== 'number' || Math.abs(change) <= MAX_TABLE_CHIPS);
}
