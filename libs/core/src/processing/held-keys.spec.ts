import { HeldKeys } from './held-keys.js';

const policy = { maxAttempts: 3, initialDelayMs: 20, maxDelayMs: 50 };

describe('HeldKeys', () => {
  it('holds an aggregate from its first failure until its last held event is settled, oldest first', () => {
    const held = new HeldKeys(policy);
    held.failedFirst('x', 3, 1_000);
    held.append('x', 7);
    expect(held.isHeld('x')).toBe(true);
    expect(held.isHeld('y')).toBe(false);
    const [queue] = held.due(1_020);
    expect(queue.positions).toEqual([3, 7]);
    held.shift(queue);
    expect(held.due(1_020).map((due) => due.positions)).toEqual([[7]]);
    held.shift(queue);
    expect(held.isHeld('x')).toBe(false);
    expect(held.nextDueAt).toBeUndefined();
  });

  it('backs off 4x per failure up to the cap and says when the attempts are used up', () => {
    const held = new HeldKeys(policy);
    held.failedFirst('x', 3, 1_000);
    expect(held.due(1_019)).toEqual([]);
    expect(held.nextDueAt).toBe(1_020);
    const [queue] = held.due(1_020);
    expect(held.failed(queue, 1_020)).toBe(false);
    expect(held.nextDueAt).toBe(1_070);
    expect(held.failed(queue, 1_070)).toBe(true);
  });

  it('takes what the store holds as due now, by key', () => {
    const held = new HeldKeys(policy);
    held.failedFirst('gone', 1, 0);
    held.replace([
      { key: 'player/x', position: 5 },
      { key: 'table/x', position: 8 },
      { key: 'player/x', position: 9 },
    ]);
    expect(held.isHeld('gone')).toBe(false);
    expect(held.due(0).map((queue) => [queue.key, queue.positions])).toEqual([
      ['player/x', [5, 9]],
      ['table/x', [8]],
    ]);
  });

  it('keeps the last error for status reports, and makes a key due now when an operator asks', () => {
    const held = new HeldKeys(policy);
    held.failedFirst('x', 3, 1_000, new Error('table full'));
    held.append('x', 7);
    expect(held.snapshot()).toEqual([{ key: 'x', positions: [3, 7], failures: 1, dueAt: 1_020, lastError: 'table full' }]);
    expect(held.dueNow(99)).toBe(false);
    expect(held.dueNow(7)).toBe(true);
    expect(held.due(1_000).map((queue) => queue.positions)).toEqual([[3, 7]]);
    // The snapshot is a copy: changing it holds nothing.
    held.snapshot()[0].positions.push(11);
    const [queue] = held.due(1_000);
    expect(queue.positions).toEqual([3, 7]);
    held.shift(queue);
    expect(held.snapshot()[0]).toMatchObject({ positions: [7], failures: 0, lastError: undefined });
  });
});
