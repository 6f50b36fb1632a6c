import { WorkflowActivity } from './workflow-activity.js';

/** A batch the test ends when it wants. */
function batch(): { work: () => Promise<void>; end: () => void } {
  let end!: () => void;
  const done = new Promise<void>((resolve) => (end = resolve));
  return { work: () => done, end };
}

/** Whether `promise` has settled after a few turns of the event loop. */
async function settledYet(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe('WorkflowActivity', () => {
  it('lets a projector go at once when projectors do not wait, whatever the workflows do', async () => {
    const activity = new WorkflowActivity(false);
    const running = batch();
    const during = activity.during(running.work);
    expect(await settledYet(activity.settled())).toBe(true);
    running.end();
    await during;
  });

  it('holds a projector while a workflow batch is in hand, and lets it go once the batch ends', async () => {
    const activity = new WorkflowActivity(true, 60_000);
    const running = batch();
    const during = activity.during(running.work);
    const waiting = activity.settled();
    expect(await settledYet(waiting)).toBe(false);
    running.end();
    await during;
    expect(await settledYet(waiting)).toBe(true);
  });

  it('keeps holding it when the next batch of a chain begins as the one before ends', async () => {
    const activity = new WorkflowActivity(true, 60_000);
    const first = batch();
    const second = batch();
    // The next hop starts in the same turn as the first ends, as a workflow woken by the first's append does.
    const chain = activity.during(first.work).then(() => activity.during(second.work));
    const waiting = activity.settled();
    expect(await settledYet(waiting)).toBe(false);
    first.end();
    expect(await settledYet(waiting)).toBe(false);
    second.end();
    await chain;
    expect(await settledYet(waiting)).toBe(true);
  });

  it('lets the projector go after the cap when a workflow batch does not end', async () => {
    const activity = new WorkflowActivity(true, 30);
    const running = batch();
    const during = activity.during(running.work);
    const started = performance.now();
    await activity.settled();
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    running.end();
    await during;
  });

  it('counts the batch that failed as ended', async () => {
    const activity = new WorkflowActivity(true, 60_000);
    await expect(activity.during(() => Promise.reject(new Error('step failed')))).rejects.toThrow('step failed');
    expect(await settledYet(activity.settled())).toBe(true);
  });
});
