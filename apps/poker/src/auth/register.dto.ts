import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import type { PlayerType } from '../player/index.js';

export class RegisterRequest {
  @ApiPropertyOptional({ description: 'The player id wanted (letters, digits, - and _); default a fresh one', example: 'alice' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: ({ value }) => `playerId must be 1 to 64 letters, digits, - or _, got ${JSON.stringify(value)}` })
  playerId?: string;
  @ApiProperty({ example: 'Alice' }) @IsString() @Length(1, 100) displayName!: string;
  @ApiPropertyOptional({ example: 'alice@example.com' })
  @IsOptional()
  @IsEmail({}, { message: ({ value }) => `email must be an email address, got ${JSON.stringify(value)}` })
  email?: string;
  @ApiPropertyOptional({ enum: ['HUMAN', 'AI'] }) @IsOptional() @IsIn(['HUMAN', 'AI']) playerType?: PlayerType;
}

export class Session {
  @ApiProperty() playerId!: string;
  @ApiProperty({ description: 'Send as Authorization: Bearer <token>' }) token!: string;
  @ApiProperty() expiresAt!: string;
}

export class Me {
  @ApiProperty() playerId!: string;
  @ApiProperty() displayName!: string;
  @ApiProperty({ enum: ['HUMAN', 'AI'] }) playerType!: PlayerType;
  @ApiProperty({ description: 'Tables holding chips of this player' }) tables!: string[];
}
