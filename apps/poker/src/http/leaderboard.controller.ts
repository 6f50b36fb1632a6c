import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type LeaderboardEntry, LeaderboardQuery } from '../read-models/index.js';
import { LeaderboardEntryDto } from './read-model.dto.js';

@ApiTags('poker')
@Controller('leaderboard')
export class LeaderboardController {
  constructor(private readonly leaderboard: LeaderboardQuery) {}

  @Get()
  @ApiOperation({ summary: 'Players ranked by net winnings, then hands won' })
  @ApiOkResponse({ type: [LeaderboardEntryDto] })
  top(): Promise<LeaderboardEntry[]> {
    return this.leaderboard.top();
  }
}
