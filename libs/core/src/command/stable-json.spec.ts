import fc from 'fast-check';
import stableStringify from 'fast-json-stable-stringify';
import { stableJson } from './stable-json.js';

// Command fingerprints recorded before 0.3 were made with fast-json-stable-stringify: a repeated
// Command-Id must hash to the same fingerprint now, so the two must agree on every input.
describe('stableJson', () => {
  it('writes what fast-json-stable-stringify writes, for any JSON-like value', () => {
    const leaf = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.date({ noInvalidDate: true }));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node')), fc.dictionary(fc.string(), tie('node'))),
    })).node;
    fc.assert(fc.property(value, (input) => expect(stableJson(input)).toBe(stableStringify(input))), { numRuns: 2000 });
  });

  it('sorts keys at every depth and refuses a cycle', () => {
    expect(stableJson({ b: 1, a: { d: [3, undefined, () => 1], c: Infinity } })).toBe('{"a":{"c":null,"d":[3,null,null]},"b":1}');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => stableJson(cycle)).toThrow(/circular/);
  });
});
