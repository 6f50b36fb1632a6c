import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Balance, LeaderboardEntry, LeaderboardPage } from '../read-models/index.js';

// Response shapes for the OpenAPI document; `implements` keeps them in step with the read models.

export class BalanceDto implements Balance {
  @ApiProperty() playerId!: string;
  @ApiProperty({ description: 'All chips the player owns, including those at tables' }) bankroll!: number;
  @ApiProperty({ description: 'Chips bought in at tables' }) reserved!: number;
  @ApiProperty({ description: 'bankroll - reserved' }) available!: number;
}

export class LeaderboardEntryDto implements LeaderboardEntry {
  @ApiProperty() rank!: number;
  @ApiProperty() playerId!: string;
  @ApiProperty() displayName!: string;
  @ApiProperty({ description: 'Chips won minus chips lost, over all hands' }) netWinnings!: number;
  @ApiProperty() handsPlayed!: number;
  @ApiProperty({ description: 'Hands in which the player won a pot or a share of one' }) handsWon!: number;
}

export class LeaderboardPageDto implements LeaderboardPage {
  @ApiProperty({ type: [LeaderboardEntryDto] }) entries!: LeaderboardEntryDto[];
  @ApiProperty({ description: 'Players on the whole leaderboard' }) total!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() offset!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'The offset of the next page; null on the last one' }) nextOffset!: number | null;
  @ApiProperty({ type: LeaderboardEntryDto, nullable: true, description: "The signed-in player's own row, with its rank, on this page or not; null when not signed in" })
  you!: LeaderboardEntryDto | null;
}

export class SeatDto {
  @ApiProperty() seat!: number;
  @ApiProperty() playerId!: string;
  @ApiProperty() stack!: number;
  @ApiProperty() sittingOut!: boolean;
}

export class TableViewDto {
  @ApiProperty() tableId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['TEXAS_HOLDEM', 'OMAHA', 'FIVE_CARD_DRAW'] }) variant!: string;
  @ApiProperty() smallBlind!: number;
  @ApiProperty() bigBlind!: number;
  @ApiProperty() minBuyIn!: number;
  @ApiProperty() maxBuyIn!: number;
  @ApiProperty() maxPlayers!: number;
  @ApiProperty() actionTimeoutMs!: number;
  @ApiProperty({ enum: ['waiting', 'in_hand'] }) status!: string;
  @ApiProperty() handCount!: number;
  @ApiProperty() dealerPosition!: number;
  @ApiProperty({ type: [SeatDto] }) seats!: SeatDto[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'The current (or last) hand: handId, handNumber, variant, phase, communityCards, pot, ' +
      'actionOn, amountToCall, players [{playerId, position, stack, bet, folded, allIn, drew, shown, ranking, mucked}], lastAction, awards',
  })
  hand!: object | null;
  @ApiPropertyOptional({ type: [String], nullable: true, description: "The viewer's hole cards (with ?viewer=playerId)" }) yourCards!: string[] | null;
}

export class BotMoveDto {
  @ApiProperty() playerId!: string;
  @ApiProperty({ enum: ['PlayerAction', 'RequestDraw', 'RevealCards'] }) command!: string;
  @ApiPropertyOptional() action?: string;
  @ApiPropertyOptional() amount?: number;
  @ApiPropertyOptional({ type: [Number] }) discardIndices?: number[];
  @ApiPropertyOptional({ description: 'RevealCards: true when the bot mucks its losing hand' }) muck?: boolean;
}
