import { combineTimerChanges } from './timer-change.js';

const timer = (id: string, name: string) => ({ id, name, dueAt: new Date(0), payload: null });

describe('combineTimerChanges', () => {
  it('keeps one change as it is', () => {
    const change = { cancel: ['action'], schedule: [timer('a', 'action')] };
    expect(combineTimerChanges([change])).toEqual(change);
  });

  it('lets a later cancel reach the timers an earlier step scheduled, and only those of its names', () => {
    const combined = combineTimerChanges([
      { cancel: ['action'], schedule: [timer('a', 'action'), timer('d', 'draw')] },
      { cancel: ['action'], schedule: [timer('b', 'action')] },
    ]);
    expect(combined).toEqual({ cancel: ['action'], schedule: [timer('d', 'draw'), timer('b', 'action')] });
  });

  it('cancels every name any step cancels, once', () => {
    const combined = combineTimerChanges([
      { cancel: ['action'], schedule: [] },
      { cancel: ['draw', 'action'], schedule: [] },
      { cancel: [], schedule: [timer('c', 'action')] },
    ]);
    expect(combined).toEqual({ cancel: ['action', 'draw'], schedule: [timer('c', 'action')] });
  });
});
