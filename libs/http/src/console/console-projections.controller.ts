import { Body, Controller, Get, HttpCode, Post, Req, UseFilters, UseGuards } from '@nestjs/common';
import {
  BlueGreenRebuilder,
  EventSourcingRegistry,
  InvalidArgumentError,
  describe,
  type BlueGreenOutcome,
  type BlueGreenProgress,
} from '@nest-es/core/internal';
import { assertObjectBody } from '../command-body.js';
import { EventSourcingAdminGuard } from '../configured-guards.js';
import { EventSourcingExceptionFilter } from '../event-sourcing-exception.filter.js';
import type { HttpRequest } from '../http-request.js';
import { principalOf } from '../principal-of.js';

/** One projector as the console's rebuild panel shows it. */
export interface ConsoleProjection {
  name: string;
  /** Its declared tables; null when it declares none (it cannot be rebuilt blue/green). */
  tables: string[] | null;
  /** The rebuild under way in this process. */
  rebuild: BlueGreenProgress | null;
  /** How the last one here ended. */
  last: BlueGreenOutcome | null;
  /** A previous copy is kept: switching back is possible. */
  previous: boolean;
}

const MAX_NAME_LENGTH = 200;

/** `<console>/api/projections`: the blue/green rebuilds, started, followed and undone; behind `http.adminGuard`. */
@Controller()
@UseFilters(EventSourcingExceptionFilter)
@UseGuards(EventSourcingAdminGuard)
export class ConsoleProjectionsController {
  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly rebuilder: BlueGreenRebuilder,
  ) {}

  @Get()
  async projections(): Promise<ConsoleProjection[]> {
    const building = new Map(this.rebuilder.progress().map((progress) => [progress.projector, progress]));
    const last = new Map(this.rebuilder.lastOutcomes().map((outcome) => [outcome.projector, outcome]));
    const projectors = [...this.registry.subscribers.values()].filter((subscriber) => subscriber.kind === 'projector');
    return Promise.all(
      projectors.map(async ({ name, options }) => ({
        name,
        tables: options.tables ? [...options.tables] : null,
        rebuild: building.get(name) ?? null,
        last: last.get(name) ?? null,
        previous: await this.rebuilder.hasPrevious(name),
      })),
    );
  }

  /** Body `{projector}`: starts a blue/green rebuild here; 202 with its first progress, or the refusal. */
  @Post('rebuild')
  @HttpCode(202)
  rebuild(@Body() body: unknown, @Req() request: HttpRequest): BlueGreenProgress {
    assertObjectBody(body, 'a rebuild');
    return this.rebuilder.start(projectorName(body.projector), principalOf(request)?.id);
  }

  /** Body `{projector}`: puts the previous copy back live (and the current one aside). */
  @Post('switch-back')
  @HttpCode(200)
  switchBack(@Body() body: unknown, @Req() request: HttpRequest): Promise<{ projector: string; position: number }> {
    assertObjectBody(body, 'a switch back');
    return this.rebuilder.switchBack(projectorName(body.projector), principalOf(request)?.id);
  }
}

function projectorName(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_NAME_LENGTH) {
    throw new InvalidArgumentError(`projector must be a projector's name (a non-empty string of at most ${MAX_NAME_LENGTH} characters), got ${describe(value)}`);
  }
  return value;
}
