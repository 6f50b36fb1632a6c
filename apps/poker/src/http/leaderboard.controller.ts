import { Controller, Get, Headers, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { InvalidArgumentError } from '@nest-es/core';
import { PlayerTokens } from '../auth/player-tokens.service.js';
import { LEADERBOARD_DEFAULT_LIMIT, LEADERBOARD_MAX_LIMIT, LEADERBOARD_MAX_OFFSET, type LeaderboardPage, LeaderboardQuery } from '../read-models/index.js';
import { LeaderboardPageDto } from './read-model.dto.js';

@ApiTags('poker')
@Controller('leaderboard')
export class LeaderboardController {
  constructor(
    private readonly leaderboard: LeaderboardQuery,
    private readonly tokens: PlayerTokens,
  ) {}

  @Get()
  @ApiOperation({ summary: "Players ranked by net winnings, then hands won, a page at a time; signed in, the player's own row and rank too" })
  @ApiQuery({ name: 'limit', required: false, description: `Rows per page, 1 to ${LEADERBOARD_MAX_LIMIT} (default ${LEADERBOARD_DEFAULT_LIMIT})` })
  @ApiQuery({ name: 'offset', required: false, description: `Rows to skip, 0 to ${LEADERBOARD_MAX_OFFSET} (default 0)` })
  @ApiBearerAuth()
  @ApiOkResponse({ type: LeaderboardPageDto })
  async page(@Query('limit') limit: unknown, @Query('offset') offset: unknown, @Headers('authorization') authorization?: string): Promise<LeaderboardPage> {
    const rows = limit === undefined ? LEADERBOARD_DEFAULT_LIMIT : wholeNumber('limit', limit, 1, LEADERBOARD_MAX_LIMIT);
    const skip = offset === undefined ? 0 : wholeNumber('offset', offset, 0, LEADERBOARD_MAX_OFFSET);
    const reader = await this.tokens.principal(authorization);
    return this.leaderboard.page(rows, skip, reader?.id);
  }
}

/** A query parameter holding a whole number in [min, max], given once (the framework's listings take `limit` the same way). */
function wholeNumber(name: string, value: unknown, min: number, max: number): number {
  if (typeof value === 'string' && new RegExp(`^\\d{1,${String(max).length}}$`).test(value)) {
    const parsed = Number(value);
    if (parsed >= min && parsed <= max) return parsed;
  }
  const got = typeof value === 'string' ? `'${value.slice(0, 40)}'` : JSON.stringify(value)?.slice(0, 80);
  throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}, given once; got ${got}`);
}
