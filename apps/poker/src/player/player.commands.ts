import { AggregateId } from '@nest-es/core';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsPositive, IsString, Length, Max, Min } from 'class-validator';
import { MAX_BANKROLL, MAX_CHIPS_PER_COMMAND, MAX_TABLE_CHIPS } from '../limits.js';

export { MAX_BANKROLL, MAX_CHIPS_PER_COMMAND } from '../limits.js';

const atMost = (max: number) => ({ message: ({ property, value }: { property: string; value: unknown }) => `${property} must be at most ${max} chips, got ${JSON.stringify(value)}` });
const maxChips = atMost(MAX_CHIPS_PER_COMMAND);
const positiveChips = { message: ({ property, value }: { property: string; value: unknown }) => `${property} must be a positive whole number of chips, got ${JSON.stringify(value)}` };
const wholeChips = { message: ({ property, value }: { property: string; value: unknown }) => `${property} must be a whole number of chips, got ${JSON.stringify(value)}` };

export type PlayerType = 'HUMAN' | 'AI';

abstract class PlayerCommand {
  @AggregateId()
  @IsString()
  playerId!: string;
}

export class RegisterPlayer extends PlayerCommand {
  @IsString() @Length(1, 100) displayName!: string;
  @IsEmail({}, { message: ({ value }) => `email must be an email address, got ${JSON.stringify(value)}` }) email!: string;
  @IsOptional() @IsIn(['HUMAN', 'AI']) playerType?: PlayerType;
}

export class RenamePlayer extends PlayerCommand {
  @IsString() @Length(1, 100) displayName!: string;
}

export class DepositFunds extends PlayerCommand {
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxChips) amount!: number;
}

export class WithdrawFunds extends PlayerCommand {
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxChips) amount!: number;
}

export class ReserveFunds extends PlayerCommand {
  @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxChips) amount!: number;
  @IsString() @Length(1, 200) tableId!: string;
  /** A top-up: adds to the reservation the player already has at the table, rather than making the first. */
  @IsOptional() @IsBoolean({ message: ({ value }) => `topUp must be true or false, got ${JSON.stringify(value)}` }) topUp?: boolean;
}

export class ReleaseFunds extends PlayerCommand {
  @IsString() @Length(1, 200) tableId!: string;
  /** Part of the reservation (a failed top-up); without it, the whole reservation. */
  @IsOptional() @IsInt(wholeChips) @IsPositive(positiveChips) @Max(MAX_CHIPS_PER_COMMAND, maxChips) amount?: number;
}

export class SettleTableSession extends PlayerCommand {
  @IsString() @Length(1, 200) tableId!: string;
  /** A stack leaving the table: up to every chip the table can hold (the player may have won them all). */
  @IsInt(wholeChips) @Min(0, { message: ({ value }) => `cashOut must be >= 0, got ${JSON.stringify(value)}` }) @Max(MAX_TABLE_CHIPS, atMost(MAX_TABLE_CHIPS)) cashOut!: number;
  /**
   * What the table says the player brought to it (the buy-in and the top-ups it credited): the part
   * of the reservation the session settles. Without it, the whole reservation.
   */
  @IsOptional() @IsInt(wholeChips) @Min(0, { message: ({ value }) => `boughtIn must be >= 0, got ${JSON.stringify(value)}` }) @Max(MAX_BANKROLL, atMost(MAX_BANKROLL)) boughtIn?: number;
}

export class SitOut extends PlayerCommand {}

export class SitIn extends PlayerCommand {}
