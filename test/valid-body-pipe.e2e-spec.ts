import { Body, Controller, type INestApplication, Module, Post } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsInt, IsString, Max, Min } from 'class-validator';
import request from 'supertest';
import { EventSourcingModule, inMemory } from '@nest-es/core';
import { EventSourcingHttpModule, ValidBodyPipe } from '@nest-es/http';
import { createHttpApp, HTTP_ADAPTERS } from './support/http-adapter.js';

class SignUp {
  @IsString() name!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
}

@Controller('sign-up')
class SignUpController {
  @Post()
  signUp(@Body(ValidBodyPipe) body: SignUp): { name: string; age: number; isSignUp: boolean } {
    return { name: body.name, age: body.age, isSignUp: body instanceof SignUp };
  }
}

/** `{"a":{"a":...1}}`, `depth` levels deep, as text (JSON.stringify itself recurses). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** What a hostile or careless client sends an application's own route; each must be a 400, never a 5xx. */
const REFUSED: Array<[string, string, string | object, RegExp]> = [
  ['no body', 'application/json', '', /name must be a string/],
  ['an array', 'application/json', '[{"name":"ann","age":3}]', /must be a JSON object, got an array/],
  ['a prototype key one level down', 'application/json', '{"name":{"constructor":1},"age":3}', /key 'constructor'/],
  ['__proto__ as an own key', 'application/json', '{"name":"ann","age":3,"x":{"__proto__":{"admin":true}}}', /key '__proto__'|has no field 'x'/],
  ['10,000 levels of nesting', 'application/json', `{"name":"ann","age":3,"x":${nested(10_000)}}`, /nested more than 32 levels/],
  ['a field the class does not declare', 'application/json', JSON.stringify({ name: 'ann', age: 3, pad: 'x'.repeat(90_000) }), /SignUp has no field 'pad'/],
  ['a wrong type', 'application/json', '{"name":5,"age":3}', /name must be a string/],
  ['a number out of range', 'application/json', '{"name":"ann","age":1e308}', /age must not be greater than 150/],
  ['a form body with a prototype key', 'application/x-www-form-urlencoded', 'x[constructor]=1&name=ann&age=3', /constructor|has no field 'x'/],
];

const FASTIFY_REFUSES = ['no body', '__proto__ as an own key', 'a form body with a prototype key'];

describe.each(HTTP_ADAPTERS)('ValidBodyPipe on an application route (%s)', (adapter) => {
  describe.each([false, true])('with the framework error filter app-wide: %s', (appWide) => {
    let app: INestApplication;

    beforeAll(async () => {
      @Module({
        imports: [EventSourcingModule.forRoot({ adapter: inMemory() }), ...(appWide ? [EventSourcingHttpModule.forRoot({ appWide: true })] : [])],
        controllers: [SignUpController],
      })
      class SignUpModule {}
      const moduleRef = await Test.createTestingModule({ imports: [SignUpModule] }).compile();
      app = await createHttpApp(moduleRef, adapter);
    });

    afterAll(async () => {
      await app?.close();
    });

    it('turns a valid body into an instance of the parameter class', async () => {
      const res = await request(app.getHttpServer()).post('/sign-up').send({ name: 'ann', age: 3 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ name: 'ann', age: 3, isSignUp: true });
    });

    it.each(REFUSED)('answers 400 INVALID_ARGUMENT for %s', async (what, type, body, message) => {
      const res = await request(app.getHttpServer()).post('/sign-up').set('Content-Type', type).send(body);
      // Fastify's own parsers refuse an empty JSON body, a `__proto__` key and form bodies before any route runs.
      if (adapter === 'fastify' && FASTIFY_REFUSES.includes(what)) return expect([400, 415]).toContain(res.status);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'INVALID_ARGUMENT' });
      expect(res.body.message).toMatch(message);
      expect(res.body.message.length).toBeLessThan(1_000);
    });
  });
});
