import { HeldAggregates } from './held-aggregates.js';

const policy = { maxAttempts: 3, initialDelayMs: 20, maxDelayMs: 50 };
const event = (aggregateId: string, position: number) => ({ aggregateType: 'player', aggregateId, position });

describe('HeldAggregates', () => {
  it('holds an aggregate from its first failure until its last held event is settled, oldest first', () => {
    const held = new HeldAggregates(policy);
    held.failedFirst(event('x', 3), 1_000);
    held.append(event('x', 7));
    expect(held.isHeld(event('x', 9))).toBe(true);
    expect(held.isHeld(event('y', 4))).toBe(false);
    const [queue] = held.due(1_020);
    expect(queue.positions).toEqual([3, 7]);
    held.shift(queue);
    expect(held.due(1_020).map((due) => due.positions)).toEqual([[7]]);
    held.shift(queue);
    expect(held.isHeld(event('x', 9))).toBe(false);
    expect(held.nextDueAt).toBeUndefined();
  });

  it('backs off 4x per failure up to the cap and says when the attempts are used up', () => {
    const held = new HeldAggregates(policy);
    held.failedFirst(event('x', 3), 1_000);
    expect(held.due(1_019)).toEqual([]);
    expect(held.nextDueAt).toBe(1_020);
    const [queue] = held.due(1_020);
    expect(held.failed(queue, 1_020)).toBe(false);
    expect(held.nextDueAt).toBe(1_070);
    expect(held.failed(queue, 1_070)).toBe(true);
  });

  it('takes what the store holds as due now, keyed by aggregate type and id', () => {
    const held = new HeldAggregates(policy);
    held.failedFirst(event('gone', 1), 0);
    held.replace([
      { subscriber: 's', position: 5, aggregateType: 'player', aggregateId: 'x' },
      { subscriber: 's', position: 8, aggregateType: 'table', aggregateId: 'x' },
      { subscriber: 's', position: 9, aggregateType: 'player', aggregateId: 'x' },
    ]);
    expect(held.isHeld(event('gone', 2))).toBe(false);
    expect(held.due(0).map((queue) => [queue.aggregateType, queue.positions])).toEqual([
      ['player', [5, 9]],
      ['table', [8]],
    ]);
  });
});
