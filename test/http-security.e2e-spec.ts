import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable, type INestApplication, type LoggerService } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import {
  Aggregate,
  AggregateId,
  Apply,
  type CommandAuthorization,
  type CommandAuthorizer,
  type CommandContext,
  CommandHandler,
  EVENT_STORE,
  EventSourcingModule,
  type EventStore,
  PermissionDeniedError,
  UnauthenticatedError,
} from '@nest-es/core';
import { type EventSourcingHttpOptions, EventSourcingHttpModule } from '@nest-es/http';
import { EventSourcingRegistry } from '@nest-es/core/internal';
import { IsString } from 'class-validator';
import request from 'supertest';
import { createHttpApp, HTTP_ADAPTERS, type HttpAdapterName } from './support/http-adapter.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { typeorm } from '@nest-es/typeorm';

class Post {
  @AggregateId() @IsString() noteId!: string;
  @IsString() text!: string;
}

/** Only the application's own code sends it. */
class Archive {
  @AggregateId() @IsString() noteId!: string;
}

class Posted {
  constructor(
    readonly text: string,
    readonly by: string | null,
  ) {}
}

class Archived {}

interface NoteState {
  owner: string | null;
  texts: string[];
  archived: boolean;
}

/** A note its first author owns; the handler sees who sends through the context. */
@Aggregate('note', {
  view: {
    state: (state: NoteState, reader) => {
      if (state.owner !== reader.principal?.id) throw new PermissionDeniedError(`only ${state.owner} may read this note`);
      return { texts: state.texts };
    },
  },
})
class NoteAggregate {
  initialState(): NoteState {
    return { owner: null, texts: [], archived: false };
  }

  @CommandHandler(Post, { emits: [Posted], http: true })
  post(command: Post, _state: NoteState, context: CommandContext): Posted {
    return new Posted(command.text, context.principal?.id ?? null);
  }

  @CommandHandler(Archive, { emits: [Archived] })
  archive(): Archived {
    return new Archived();
  }

  @Apply(Posted)
  onPosted(state: NoteState, event: Posted): void {
    state.owner ??= event.by;
    state.texts.push(event.text);
  }

  @Apply(Archived)
  onArchived(state: NoteState): void {
    state.archived = true;
  }
}

/** Authenticates `X-User: <id>`; refuses a request without one. */
@Injectable()
class HeaderAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string>; user?: unknown }>();
    const user = request.headers['x-user'];
    if (!user) throw new UnauthenticatedError('send X-User');
    request.user = { id: user };
    return true;
  }
}

/** The application's global guard: a blocked client is refused everywhere. */
@Injectable()
class BlocklistGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['x-blocked']) throw new ForbiddenException('blocked');
    return true;
  }
}

/** The owner of a note, as its state says, is the only one who may add to it. */
@Injectable()
class OwnerAuthorizer implements CommandAuthorizer {
  authorize({ principal, state }: CommandAuthorization<NoteState>): boolean {
    return state.owner === null || state.owner === principal?.id;
  }
}

class LogLines implements LoggerService {
  readonly lines: string[] = [];
  log(message: unknown): void {
    this.lines.push(String(message));
  }
  warn(): void {}
  error(): void {}
}

async function boot(adapter: HttpAdapterName, store: TestStore, http: boolean | EventSourcingHttpOptions, logger: LoggerService | false = false): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), metrics: true }), EventSourcingHttpModule.forRoot(http === true ? {} : http || {})],
    providers: [NoteAggregate, HeaderAuthGuard, { provide: APP_GUARD, useClass: BlocklistGuard }],
  }).compile();
  return createHttpApp(moduleRef, adapter, logger);
}

describe.each(HTTP_ADAPTERS)('the framework\'s HTTP routes (%s): exposure, guards, the authorizer, views', (adapter) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await createTestStore();
  });

  afterAll(async () => {
    await store?.cleanup();
  });

  describe('with http: true', () => {
    let app: INestApplication;
    let logs: LogLines;

    beforeAll(async () => {
      logs = new LogLines();
      app = await boot(adapter, store, true, logs);
    });

    afterAll(async () => {
      await app?.close();
    });

    it('routes only commands marked http: true, logs them at boot, and answers unexposed ones like unknown ones', async () => {
      const http = request(app.getHttpServer());
      expect(logs.lines).toContain('commands routable over HTTP: note.Post');
      expect(app.get(EventSourcingRegistry).exposedCommands().map((handler) => handler.commandType)).toEqual(['Post']);
      expect((await http.post('/commands/note/n0/Post').send({ text: 'hi' })).status).toBe(200);
      const internal = await http.post('/commands/note/n0/Archive').send({});
      const unknown = await http.post('/commands/note/n0/Burn').send({});
      expect([internal.status, internal.body.code, unknown.status]).toEqual([404, 'NOT_FOUND', 404]);
      expect(internal.body.message).toBe(unknown.body.message.replace('Burn', 'Archive'));
    });

    it('mounts neither aggregate reads nor dead letters', async () => {
      const http = request(app.getHttpServer());
      expect((await http.get('/aggregates/note/n0')).status).toBe(404);
      expect((await http.get('/dead-letters')).status).toBe(404);
    });

    it('honours the application\'s global APP_GUARD on its routes (403 coded)', async () => {
      const res = await request(app.getHttpServer()).post('/commands/note/n0/Post').set('X-Blocked', '1').send({ text: 'x' });
      expect(res.body).toEqual({ statusCode: 403, code: 'PERMISSION_DENIED', message: 'blocked' });
    });

    it("sends helmet's security headers on answers and refusals alike", async () => {
      const http = request(app.getHttpServer());
      for (const res of [await http.post('/commands/note/n0/Post').send({ text: 'hi' }), await http.post('/commands/note/n0/Burn').send({})]) {
        expect(res.headers['x-powered-by']).toBeUndefined();
        expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN', 'content-security-policy': expect.stringContaining("default-src 'self'") });
      }
    });

    it('takes application/json only: 415 for a form or text body, nothing stored', async () => {
      const http = request(app.getHttpServer());
      const before = await app.get<EventStore>(EVENT_STORE).headPosition();
      const form = await http.post('/commands/note/n0/Post').type('form').send('text=x');
      const text = await http.post('/commands/note/n0/Post').set('Content-Type', 'text/plain').send('{"text":"x"}');
      expect([form.status, form.body.code, text.status, text.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE', 415, 'UNSUPPORTED_MEDIA_TYPE']);
      expect(await app.get<EventStore>(EVENT_STORE).headPosition()).toBe(before);
    });
  });

  describe('with a CORS policy', () => {
    let app: INestApplication;

    beforeAll(async () => {
      app = await boot(adapter, store, { cors: { origin: 'https://app.example' } });
    });

    afterAll(async () => {
      await app?.close();
    });

    it('answers a preflight and a command with the allowed origin', async () => {
      const http = request(app.getHttpServer());
      const preflight = await http.options('/commands/note/c1/Post').set({ Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' });
      const sent = await http.post('/commands/note/c1/Post').set('Origin', 'https://app.example').send({ text: 'x' });
      expect([preflight.status, preflight.headers['access-control-allow-origin'], sent.status, sent.headers['access-control-allow-origin']]).toEqual([
        204, 'https://app.example', 200, 'https://app.example',
      ]);
    });
  });

  describe('with guards, an authorizer and reads', () => {
    let app: INestApplication;
    let http: ReturnType<typeof request>;

    beforeAll(async () => {
      app = await boot(adapter, store, { guards: [HeaderAuthGuard], authorizer: OwnerAuthorizer, aggregateReads: true });
      http = request(app.getHttpServer());
    });

    afterAll(async () => {
      await app?.close();
    });

    const post = (id: string, user: string | undefined, text: string) => http.post(`/commands/note/${id}/Post`).set(user ? { 'X-User': user } : {}).send({ text });

    it('runs the guards of the options: 401 coded without credentials, nothing stored', async () => {
      const res = await post('n1', undefined, 'x');
      expect(res.body).toEqual({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'send X-User' });
      expect(await app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'note', aggregateId: 'n1' })).toEqual([]);
    });

    it('gives the principal to the handler and records it on the event', async () => {
      expect((await post('n1', 'ada', 'first')).status).toBe(200);
      const [event] = await app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'note', aggregateId: 'n1' });
      expect(event).toMatchObject({ payload: { text: 'first', by: 'ada' }, metadata: { principal: 'ada' } });
    });

    it('asks the authorizer with the current state: another user is refused 403, nothing stored', async () => {
      const res = await post('n1', 'bob', 'mine now');
      expect(res.body).toEqual({ statusCode: 403, code: 'PERMISSION_DENIED', message: 'bob may not send Post on note/n1' });
      expect((await post('n1', 'ada', 'second')).status).toBe(200);
      expect(await app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'note', aggregateId: 'n1' })).toHaveLength(2);
    });

    it('answers a repeated Command-Id only to a caller the authorizer allows', async () => {
      const first = await http.post('/commands/note/n1/Post').set({ 'X-User': 'ada', 'Command-Id': 'c-1' }).send({ text: 'third' });
      expect(first.status).toBe(200);
      const stranger = await http.post('/commands/note/n1/Post').set({ 'X-User': 'bob', 'Command-Id': 'c-1' }).send({ text: 'third' });
      expect([stranger.status, stranger.body.code]).toEqual([403, 'PERMISSION_DENIED']);
    });

    it('shows a reader what the view gives, refuses others, and serves no events without an event view', async () => {
      expect((await http.get('/aggregates/note/n1').set('X-User', 'ada')).body).toEqual({ sequence: 3, state: { texts: ['first', 'second', 'third'] } });
      const other = await http.get('/aggregates/note/n1').set('X-User', 'bob');
      expect([other.status, other.body.code]).toEqual([403, 'PERMISSION_DENIED']);
      expect((await http.get('/aggregates/note/n1')).status).toBe(401);
      expect((await http.get('/aggregates/note/n1/events').set('X-User', 'ada')).status).toBe(404);
    });
  });
});
