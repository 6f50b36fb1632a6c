import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsPositive, IsString, Length, Max, Min } from 'class-validator';
import { BUY_IN_FAILURES, type BuyInFailureCode } from '../flows/index.js';
import { MAX_CHIPS_PER_COMMAND } from '../limits.js';
import { atMostChips, MAX_SEATS, positiveChips, says } from '../table/index.js';

const seatRange = says(`a seat from 0 to ${MAX_SEATS - 1}, or -1 for any free seat`);

export class BuyInRequest {
  @ApiProperty({ example: 'alice' }) @IsString() @Length(1, 200) playerId!: string;
  @ApiProperty({ description: 'The seat wanted, or -1 for the lowest free seat', example: -1 })
  @IsInt(seatRange)
  @Min(-1, seatRange)
  @Max(MAX_SEATS - 1, seatRange)
  seat!: number;
  @ApiProperty({ description: `Chips to bring to the table, within the table's buy-in range (at most ${MAX_CHIPS_PER_COMMAND})`, example: 500 })
  @IsInt(positiveChips)
  @IsPositive(positiveChips)
  @Max(MAX_CHIPS_PER_COMMAND, atMostChips(MAX_CHIPS_PER_COMMAND))
  amount!: number;
}

export class TopUpRequest {
  @ApiProperty({ example: 'alice' }) @IsString() @Length(1, 200) playerId!: string;
  @ApiProperty({ description: `Chips to add to the stack from the bankroll, between hands; the stack may reach the table's maxBuyIn (at most ${MAX_CHIPS_PER_COMMAND})`, example: 200 })
  @IsInt(positiveChips)
  @IsPositive(positiveChips)
  @Max(MAX_CHIPS_PER_COMMAND, atMostChips(MAX_CHIPS_PER_COMMAND))
  amount!: number;
}

export class BuyInOutcome {
  @ApiProperty({ description: 'The buy-in process id: the correlation id of all its events' }) buyInId!: string;
  @ApiProperty() playerId!: string;
  @ApiProperty() tableId!: string;
  @ApiProperty({ description: 'The seat asked for, or taken once COMPLETED (a top-up: the seat topped up, -1 until then)' }) seat!: number;
  @ApiProperty() amount!: number;
  @ApiProperty({ enum: ['COMPLETED', 'FAILED', 'PENDING'] }) status!: 'COMPLETED' | 'FAILED' | 'PENDING';
  @ApiPropertyOptional({ enum: BUY_IN_FAILURES }) code?: BuyInFailureCode;
  @ApiPropertyOptional({ example: 'seat 2 is occupied by bob' }) reason?: string;
}
