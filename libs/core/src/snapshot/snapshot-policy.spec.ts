import 'reflect-metadata';
import fc from 'fast-check';
import { createSnapshotPolicy, DEFAULT_SNAPSHOT_RETAIN } from './snapshot-policy.js';

class Milestone {}
class Counted {}

describe('createSnapshotPolicy', () => {
  it('is due exactly when an append passes or reaches a multiple of `every`', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.nat(1000), fc.integer({ min: 1, max: 120 }), (every, from, appended) => {
        const to = from + appended;
        const crossed = Array.from({ length: appended }, (_, i) => from + 1 + i).some((sequence) => sequence % every === 0);
        expect(createSnapshotPolicy({ every }, undefined).isDue(from, to, [])).toBe(crossed);
      }),
    );
  });

  it('counts one append of several events that crosses a multiple once, wherever it lands', () => {
    const policy = createSnapshotPolicy({ every: 10 }, undefined);
    expect(policy.isDue(7, 12, [])).toBe(true);
    expect(policy.isDue(10, 19, [])).toBe(false);
    expect(policy.isDue(19, 41, [])).toBe(true);
  });

  it('is due when the append carries an event of an `onEvents` type', () => {
    const policy = createSnapshotPolicy({ onEvents: [Milestone] }, undefined);
    expect(policy.isDue(0, 2, ['Counted', 'Counted'])).toBe(false);
    expect(policy.isDue(2, 4, ['Counted', 'Milestone'])).toBe(true);
  });

  it('takes the module default when the aggregate has none, and the aggregate\'s own otherwise', () => {
    expect(createSnapshotPolicy(undefined, { every: 2, retain: 5 })).toMatchObject({ enabled: true, retain: 5 });
    expect(createSnapshotPolicy('none', { every: 2 }).isDue(0, 10, [])).toBe(false);
    expect(createSnapshotPolicy({ onEvents: [Counted] }, { every: 2 }).isDue(0, 10, [])).toBe(false);
    expect(createSnapshotPolicy(undefined, undefined)).toMatchObject({ enabled: false, retain: DEFAULT_SNAPSHOT_RETAIN });
  });

  it('refuses an `every` or `retain` that is not a positive whole number', () => {
    expect(() => createSnapshotPolicy({ every: 0 }, undefined)).toThrow('snapshot.every must be a positive integer, got 0');
    expect(() => createSnapshotPolicy({ every: 2.5 }, undefined)).toThrow('snapshot.every');
    expect(() => createSnapshotPolicy({ every: 10, retain: 0 }, undefined)).toThrow('snapshot.retain must be a positive integer, got 0');
  });
});
