import { type CanActivate, type ExecutionContext, Inject, Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { isObservable, lastValueFrom } from 'rxjs';
import { EVENT_SOURCING_HTTP_OPTIONS, type EventSourcingHttpOptions, type GuardOption } from './http-options.js';

/**
 * Runs guards named in the module options as if they were on the route: a class is taken from the
 * application's providers when it is one (so it shares their instances), else created once here.
 */
@Injectable()
export class ConfiguredGuards {
  private readonly instances = new Map<Type<CanActivate>, Promise<CanActivate>>();

  constructor(private readonly moduleRef: ModuleRef) {}

  async allow(guards: readonly GuardOption[], context: ExecutionContext): Promise<boolean> {
    for (const option of guards) {
      const guard = typeof option === 'function' ? await this.instance(option) : option;
      const answer = guard.canActivate(context);
      if (!(isObservable(answer) ? await lastValueFrom(answer) : await answer)) return false;
    }
    return true;
  }

  private instance(type: Type<CanActivate>): Promise<CanActivate> {
    let instance = this.instances.get(type);
    if (!instance) {
      instance = this.resolve(type);
      this.instances.set(type, instance);
    }
    return instance;
  }

  private async resolve(type: Type<CanActivate>): Promise<CanActivate> {
    try {
      return this.moduleRef.get(type, { strict: false });
    } catch {
      return this.moduleRef.create(type);
    }
  }
}

/** On the command and aggregate routes: the `http.guards` of the module options. */
@Injectable()
export class EventSourcingGuard implements CanActivate {
  constructor(
    private readonly guards: ConfiguredGuards,
    @Inject(EVENT_SOURCING_HTTP_OPTIONS) private readonly options: EventSourcingHttpOptions,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return this.guards.allow(this.options.guards ?? [], context);
  }
}

/** On the dead-letter routes: the `http.adminGuard` of the module options (they are not mounted without one). */
@Injectable()
export class EventSourcingAdminGuard implements CanActivate {
  constructor(
    private readonly guards: ConfiguredGuards,
    @Inject(EVENT_SOURCING_HTTP_OPTIONS) private readonly options: EventSourcingHttpOptions,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return this.options.adminGuard ? this.guards.allow([this.options.adminGuard], context) : Promise.resolve(false);
  }
}
