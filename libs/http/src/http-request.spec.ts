import type { IncomingMessage } from 'node:http';
import { incomingMessageOf, isJsonContentType } from './http-request.js';

describe('isJsonContentType', () => {
  it('takes application/json in any case, with parameters', () => {
    expect(['application/json', 'Application/JSON', 'application/json; charset=utf-8', ' application/json ;charset=UTF-8'].map(isJsonContentType)).toEqual([true, true, true, true]);
  });

  it('refuses other types, +json suffixes, look-alikes and no type', () => {
    const refused = ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x', 'application/vnd.api+json', 'application/jsonp', 'application/json2', '', undefined];
    expect(refused.map(isJsonContentType)).toEqual(refused.map(() => false));
  });
});

describe('incomingMessageOf', () => {
  it("is Fastify's raw message, or the request itself on Express", () => {
    const raw = { headers: {} } as IncomingMessage;
    expect(incomingMessageOf({ headers: {}, raw })).toBe(raw);
    expect(incomingMessageOf(raw)).toBe(raw);
  });
});
