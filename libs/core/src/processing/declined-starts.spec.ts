import { DeclinedStarts } from './declined-starts.js';

describe('DeclinedStarts', () => {
  it('remembers a declined start until the instance records something, or until cleared', () => {
    const declined = new DeclinedStarts();
    declined.note('hand-1', true);
    declined.note('hand-2', true);
    expect(declined.has('hand-1')).toBe(true);
    declined.note('hand-1', false);
    expect(declined.has('hand-1')).toBe(false);
    declined.clear();
    expect(declined.has('hand-2')).toBe(false);
  });

  it('forgets the oldest beyond 10,000, so the next event of that instance reads its stream again', () => {
    const declined = new DeclinedStarts();
    for (let i = 0; i <= 10_000; i++) declined.note(`hand-${i}`, true);
    expect(declined.has('hand-0')).toBe(false);
    expect(declined.has('hand-1')).toBe(true);
    expect(declined.has('hand-10000')).toBe(true);
  });
});
