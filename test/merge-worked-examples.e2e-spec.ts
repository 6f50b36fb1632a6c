import { useMergeApp } from './support/merge-app-suite.js';

/** The two worked examples of docs/merge-strategies.md and its caller retry flow, over HTTP on the poker player. */
describe('the merge-strategy worked examples over HTTP', () => {
  const suite = useMergeApp();

  const send = (id: string, command: string, body: object, expectedSequence?: number) =>
    suite.http
      .post(`/commands/player/${id}/${command}`)
      .set(expectedSequence === undefined ? {} : { 'Expected-Sequence': String(expectedSequence) })
      .send(body);

  /** "Player State @ seq 5: bankroll 1000, display_name Alice". */
  async function aliceAtSequence5(id: string): Promise<void> {
    await send(id, 'RegisterPlayer', { displayName: 'Alice', email: `${id}@example.com` });
    for (const amount of [400, 300, 200, 100]) await send(id, 'DepositFunds', { amount });
    const seen = await suite.http.get(`/aggregates/player/${id}`);
    expect(seen.body).toMatchObject({ sequence: 5, state: { bankroll: 1000, displayName: 'Alice' } });
  }

  it('disjoint: a rename and a deposit both expecting 5 race, and both land', async () => {
    await aliceAtSequence5('alice1');
    const [rename, deposit] = await Promise.all([
      send('alice1', 'RenamePlayer', { displayName: 'Ace' }, 5),
      send('alice1', 'DepositFunds', { amount: 500 }, 5),
    ]);
    expect([rename.status, deposit.status]).toEqual([200, 200]);
    expect([rename.body.sequence, deposit.body.sequence].sort()).toEqual([6, 7]);
    const now = await suite.http.get('/aggregates/player/alice1');
    expect(now.body).toMatchObject({ sequence: 7, state: { bankroll: 1500, displayName: 'Ace' } });
  });

  it('overlap: WithdrawFunds(200) expecting 5 after a deposit at 6 is refused; the caller fetches what changed and retries at 6', async () => {
    await aliceAtSequence5('alice2');
    expect((await send('alice2', 'DepositFunds', { amount: 500 }, 5)).body.sequence).toBe(6);

    const refused = await send('alice2', 'WithdrawFunds', { amount: 200 }, 5);
    expect(refused.status).toBe(412);
    expect(refused.body).toMatchObject({ statusCode: 412, code: 'SEQUENCE_MISMATCH', expectedSequence: 5, actualSequence: 6, overlappingFields: ['bankroll'] });

    // The retry flow: fetch what happened since our sequence, decide, resend at the new sequence.
    const changed = await suite.http.get(`/aggregates/player/alice2/events?afterSequence=${refused.body.expectedSequence}`);
    expect(changed.body.events.map((e: { type: string; sequence: number; payload: object }) => [e.type, e.sequence, e.payload])).toEqual([
      ['FundsDeposited', 6, { amount: 500, newBalance: 1500 }],
    ]);
    const latest = changed.body.events[changed.body.events.length - 1].sequence;
    const retried = await send('alice2', 'WithdrawFunds', { amount: 200 }, latest);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ sequence: 7, events: [{ type: 'FundsWithdrawn', payload: { amount: 200, newBalance: 1300 } }] });
  });

  it('overlap: two withdrawals both expecting 5 race; one lands, the other gets 412 and lands on its retry', async () => {
    await aliceAtSequence5('alice3');
    const results = await Promise.all([send('alice3', 'WithdrawFunds', { amount: 200 }, 5), send('alice3', 'WithdrawFunds', { amount: 300 }, 5)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
    const loser = results.find((r) => r.status === 412)!;
    expect(loser.body).toMatchObject({ code: 'SEQUENCE_MISMATCH', expectedSequence: 5, actualSequence: 6, overlappingFields: ['bankroll'] });

    const changed = await suite.http.get('/aggregates/player/alice3/events?afterSequence=5');
    expect(changed.body.events).toHaveLength(1);
    expect(changed.body.events[0]).toMatchObject({ type: 'FundsWithdrawn', sequence: 6 });
    const amount = loser === results[0] ? 200 : 300;
    const retried = await send('alice3', 'WithdrawFunds', { amount }, changed.body.events[0].sequence);
    expect(retried.status).toBe(200);
    expect((await suite.http.get('/aggregates/player/alice3')).body).toMatchObject({ sequence: 7, state: { bankroll: 500 } });
  });
});
