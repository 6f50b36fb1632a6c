import { Body, Controller, Get, HttpCode, Param, Post, Query, UseFilters, UseGuards } from '@nestjs/common';
import { EventSourcingExceptionFilter } from './event-sourcing-exception.filter.js';
import { describe } from '@nest-es/core/internal';
import { DeadLetterService, type DeadLetterPage, type RetriedDeadLetter } from '@nest-es/core';
import { InvalidArgumentError } from '@nest-es/core';
import { EventSourcingAdminGuard } from './configured-guards.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, wholeNumber } from './paging.js';
import type { DeadLetter, DeadLetterKind, DeadLetterStatus } from '@nest-es/core';

/** The dead-letter routes: review, retry and discard parked messages; mounted only with `http.adminGuard`, which guards them. */
@Controller('dead-letters')
@UseFilters(EventSourcingExceptionFilter)
@UseGuards(EventSourcingAdminGuard)
export class DeadLetterController {
  constructor(private readonly deadLetters: DeadLetterService) {}

  /** One page, oldest first: `limit` letters after `cursor` (the previous page's `nextCursor`). */
  @Get()
  list(@Query('status') status?: unknown, @Query('kind') kind?: unknown, @Query('limit') limit?: unknown, @Query('cursor') cursor?: unknown): Promise<DeadLetterPage> {
    const filter = { status: singleQuery('status', status) as DeadLetterStatus | undefined, kind: singleQuery('kind', kind) as DeadLetterKind | undefined };
    const size = limit === undefined ? DEFAULT_PAGE_SIZE : wholeNumber('limit', limit, 1, MAX_PAGE_SIZE);
    return this.deadLetters.page(filter, size, singleQuery('cursor', cursor));
  }

  @Get(':id')
  get(@Param('id') id: string): Promise<DeadLetter> {
    return this.deadLetters.get(id);
  }

  /** Body for commands: `{expectedSequence}`, the sequence the reviewer decided on. */
  @Post(':id/retry')
  @HttpCode(200)
  retry(@Param('id') id: string, @Body() body: unknown): Promise<RetriedDeadLetter> {
    return this.deadLetters.retry(id, objectBody(body));
  }

  /** Body (optional): `{reason}`, kept on the letter. */
  @Post(':id/discard')
  @HttpCode(200)
  async discard(@Param('id') id: string, @Body() body: unknown): Promise<{ deadLetter: DeadLetter }> {
    const { reason } = objectBody(body);
    if (reason !== undefined && typeof reason !== 'string') throw new InvalidArgumentError(`reason must be a string, got ${describe(reason)}`);
    return { deadLetter: await this.deadLetters.discard(id, reason) };
  }
}

function singleQuery(name: string, value: unknown): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw new InvalidArgumentError(`query parameter ${name} must be given once`);
  return value;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new InvalidArgumentError('the body must be a JSON object');
  return body as Record<string, unknown>;
}
