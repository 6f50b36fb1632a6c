import { jestGlobals } from './jest-globals.js';
import type { WakeChannel, WakeKind } from '../../store/wake-channel.js';
import type { ContractSubject } from './contract-subject.js';

const WAIT_MS = 10_000;

/**
 * Announces `kind` from `sender` until `seen` holds it: instances may take a moment to learn of each
 * other after they start listening, and a wake-up only ever hurries a reader. Fails after WAIT_MS.
 */
async function announceUntilSeen(sender: WakeChannel, seen: WakeKind[], kind: WakeKind): Promise<void> {
  for (const deadline = Date.now() + WAIT_MS; !seen.includes(kind); ) {
    if (Date.now() > deadline) throw new Error(`no '${kind}' wake-up within ${WAIT_MS} ms (got ${JSON.stringify(seen)})`);
    sender.announce(kind);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The WakeChannel contract as a jest suite, for any adapter that tells other instances what happened:
 * the subject's channel and its `second()` (required: another instance's channel on the same storage).
 * Once both listen, a checkpoint move one announces reaches the other's listener (append wake-ups
 * may come from the adapter's own appends instead of `announce`); announcing never throws, also once
 * closed.
 */
export function describeWakeChannelContract(name: string, factory: () => Promise<ContractSubject<WakeChannel>>): void {
  const { afterAll, beforeAll, describe, expect, it } = jestGlobals();
  let subject: ContractSubject<WakeChannel>;
  let other: ContractSubject<WakeChannel>;

  describe(`WakeChannel contract (${name})`, () => {
    beforeAll(async () => {
      subject = await factory();
      other = await subject.second!();
    });

    afterAll(async () => {
      await other?.close();
      await subject?.close();
    });

    it("delivers another listening instance's announcement of a checkpoint move", async () => {
      const seen: WakeKind[] = [];
      await subject.store.listen((kind) => seen.push(kind));
      await other.store.listen(() => undefined);
      await announceUntilSeen(other.store, seen, 'checkpoint');
      await subject.store.close();
    });

    it('announces without throwing, also after it was closed', async () => {
      await other.store.close();
      expect(() => other.store.announce('append')).not.toThrow();
    });
  });
}
