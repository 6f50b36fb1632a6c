import fc from 'fast-check';

/** Strings that have broken parsers, validators and stores: prototype names, NUL, lone surrogates, over-long ids. */
export const hostileStrings = fc.constantFrom(
  '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '', ' ', '\u0000', 'a\u0000b',
  '\ud800', 'x\udfff', '😀', '\u202e', 'null', 'undefined', 'NaN', '-1', '0', '2147483648', '9007199254740993', 'x'.repeat(201),
);

export const text = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }), hostileStrings);
const limits = fc.constantFrom(
  0, -0, 1, -1, 0.5, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 3e9, 2 ** 53 - 1, 2 ** 53 + 1, 1e12, 1e12 + 1, 1e15, 1e308, -1e308, 5e-324,
);
export const number = fc.oneof(limits, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
const key = fc.oneof(fc.string({ maxLength: 8 }), hostileStrings);

/** JSON values with hostile keys at any depth; JSON.stringify keeps a "__proto__" own key. */
export const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(key, tie('json'), { maxKeys: 4 }),
  ),
}));

export const idSegment = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('p1', 'alice', '__proto__', 'constructor', 'hasOwnProperty') },
  fc.constantFrom('p1', 'doc1', 'alice', '__proto__', 'constructor', 'hasOwnProperty', '%00', 'a%00b', '%ED%A0%80', '%F0%9F%98%80', '%25', 'x'.repeat(201)),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
);

/** Raw request bodies: `first` (a route's own shapes), then JSON with hostile keys and values, deep nesting, long arrays, and malformed JSON. */
export function hostileBodies(...first: Array<fc.Arbitrary<string>>): fc.Arbitrary<string> {
  return fc.oneof(
    ...first,
    json.map((value) => JSON.stringify(value)),
    fc.integer({ min: 30, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
    fc.integer({ min: 30, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    fc.integer({ min: 1, max: 30_000 }).map((length) => JSON.stringify({ amount: 1, list: Array.from({ length }, () => 0) })),
    fc.constantFrom('{"amount":5,"x":{"constructor":1}}', '{"__proto__":{"amount":1}}', '{"amount":1e400}', '{', '', 'null', '[]', '"x"', '{"amount":5}{'),
  );
}
