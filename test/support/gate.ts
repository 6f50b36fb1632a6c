import { deferred, type Deferred } from '@nest-es/core/internal';

interface Gate {
  entered: Deferred<void>;
  opened: Deferred<void>;
}

// Shared by every app in the test process: two apps racing on one database see the same gates.
const gates = new Map<string, Gate>();

function gate(name: string): Gate {
  let found = gates.get(name);
  if (!found) {
    found = { entered: deferred(), opened: deferred() };
    gates.set(name, found);
  }
  return found;
}

/**
 * Called by a test handler: holds the command between its load and its append until the test
 * opens the gate, so another app can append first (the append-conflict path, without timing).
 */
export async function passGate(name: string | undefined): Promise<void> {
  if (!name) return;
  gate(name).entered.resolve();
  await gate(name).opened.promise;
}

/** Resolves once a handler is waiting at the gate. */
export function gateEntered(name: string): Promise<void> {
  return gate(name).entered.promise;
}

export function openGate(name: string): void {
  gate(name).opened.resolve();
}
