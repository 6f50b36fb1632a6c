import { timeOrderedId } from './time-ordered-id.js';

describe('timeOrderedId', () => {
  it('is a version 7, variant 1 UUID', () => {
    expect(timeOrderedId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('starts with the current Unix time in milliseconds', () => {
    const before = Date.now();
    const id = timeOrderedId();
    const after = Date.now();
    const millis = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(after);
  });

  it('sorts ids of different milliseconds in time order and repeats none', async () => {
    const earlier = timeOrderedId();
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(timeOrderedId() > earlier).toBe(true);
    const ids = Array.from({ length: 10_000 }, timeOrderedId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
