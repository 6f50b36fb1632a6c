import type { AppendRequest } from '@nest-es/core/adapter';
import { ConcurrencyError } from '@nest-es/core/adapter';
import type { AppendOutcome } from './append-plan.js';
import { GroupCommit, type AppendFault, type AppendWriter } from './group-commit.js';

const request = (id: number): AppendRequest => ({
  stream: { aggregateType: 'counter', aggregateId: String(id) },
  expectedSequence: 0,
  events: [],
});

const accepted = (requests: readonly AppendRequest[]): AppendOutcome[] =>
  requests.map((r) => ({ stream: r.stream, sequence: 1, events: [] }));

class FakeWriter implements AppendWriter {
  readonly batches: number[][] = [];
  constructor(private readonly behave: (ids: number[]) => Promise<AppendOutcome[]> | AppendOutcome[] = () => []) {}

  async write(requests: readonly AppendRequest[]): Promise<AppendOutcome[]> {
    const ids = requests.map((r) => Number(r.stream.aggregateId));
    this.batches.push(ids);
    const outcomes = await this.behave(ids);
    return outcomes.length > 0 ? outcomes : accepted(requests);
  }

  faultOf(error: unknown): AppendFault | null {
    return error instanceof Error && error.message === 'bad row' ? 'request' : null;
  }
}

const explainAs = (fault: AppendFault, r: AppendRequest, error: unknown) =>
  Promise.resolve(new Error(`explained ${fault} of ${r.stream.aggregateId}: ${(error as Error).message}`));

describe('GroupCommit', () => {
  it('commits the appends of one turn of the event loop together, in batches of at most maxBatchSize', async () => {
    const writer = new FakeWriter();
    const commits = new GroupCommit(writer, explainAs, 256);

    await Promise.all(Array.from({ length: 300 }, (_, i) => commits.append(request(i))));

    expect(writer.batches.map((batch) => batch.length)).toEqual([256, 44]);
    expect(writer.batches.flat()).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it('gathers the appends that arrive during a transaction into the next one', async () => {
    let release!: () => void;
    const firstCommit = new Promise<void>((resolve) => (release = resolve));
    const writer = new FakeWriter(async (ids) => {
      if (ids[0] === 0) await firstCommit;
      return [];
    });
    const commits = new GroupCommit(writer, explainAs, 256);

    const first = commits.append(request(0));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [1, 2, 3].map((id) => commits.append(request(id)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writer.batches).toEqual([[0]]);
    release();
    await Promise.all([first, ...later]);

    expect(writer.batches).toEqual([[0], [1, 2, 3]]);
  });

  it('settles each append with its own outcome', async () => {
    const refused = new ConcurrencyError(request(1).stream, 0, 1);
    const writer = new FakeWriter((ids) => ids.map((id) => (id === 1 ? refused : { stream: request(id).stream, sequence: id, events: [] })));
    const commits = new GroupCommit(writer, explainAs, 256);

    const outcomes = await Promise.allSettled([0, 1, 2].map((id) => commits.append(request(id))));

    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes[1]).toMatchObject({ reason: refused });
  });

  it('isolates an append whose rows fail: the others commit, it alone fails', async () => {
    const writer = new FakeWriter((ids) => {
      if (ids.includes(37)) throw new Error('bad row');
      return [];
    });
    const commits = new GroupCommit(writer, explainAs, 256);

    const outcomes = await Promise.allSettled(Array.from({ length: 64 }, (_, i) => commits.append(request(i))));

    outcomes.forEach((outcome, i) => expect(outcome.status).toBe(i === 37 ? 'rejected' : 'fulfilled'));
    expect(outcomes[37]).toMatchObject({ reason: new Error('explained request of 37: bad row') });
    // Bisection: a handful of transactions, not one per append.
    expect(writer.batches.length).toBeLessThanOrEqual(2 * Math.log2(64) + 1);
  });

  it('rejects every append of a batch whose transaction failed as a whole', async () => {
    const lost = new Error('connection lost during COMMIT');
    const writer = new FakeWriter(() => {
      throw lost;
    });
    const commits = new GroupCommit(writer, explainAs, 256);

    const outcomes = await Promise.allSettled([0, 1, 2].map((id) => commits.append(request(id))));

    expect(outcomes).toEqual([0, 1, 2].map(() => ({ status: 'rejected', reason: lost })));
    expect(writer.batches).toEqual([[0, 1, 2]]);
  });
});
