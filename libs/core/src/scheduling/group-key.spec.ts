import fc from 'fast-check';
import { InvalidArgumentError } from '../errors/index.js';
import { stringHashCode } from '../model/key-partition.js';
import { groupKey } from './group-key.js';

describe('groupKey', () => {
  it('hashes like Java String.hashCode', () => {
    expect(stringHashCode('')).toBe(0);
    expect(stringHashCode('hello')).toBe(99162322);
    expect(stringHashCode('polygenelubricants')).toBe(-2147483648);
  });

  it('floor-mods negative hashes into [0, parallelism)', () => {
    expect(groupKey('polygenelubricants', 64)).toBe(0);
    expect(groupKey('polygenelubricants', 3)).toBe(1);
  });

  it('maps one aggregate id to one group, always inside [0, parallelism)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 4096 }), (id, parallelism) => {
        const group = groupKey(id, parallelism);
        expect(Number.isInteger(group)).toBe(true);
        expect(group).toBeGreaterThanOrEqual(0);
        expect(group).toBeLessThan(parallelism);
        expect(groupKey(`${id}`, parallelism)).toBe(group);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a parallelism below 1', () => {
    expect(() => groupKey('id', 0)).toThrow(InvalidArgumentError);
  });
});
