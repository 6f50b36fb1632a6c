/** A new poison event this often, so that one is being retried during the whole measurement. */
const POISON_EVERY_MS = 250;

/** Sends a poison command now and every POISON_EVERY_MS until stopped, so one is being retried all along; `stop` says how many were sent. */
export function keepPoisoning(send: () => Promise<unknown>): { stop(): Promise<number> } {
  let sent = 0;
  let poisoning = true;
  const loop = (async () => {
    while (poisoning) {
      await send();
      sent++;
      await new Promise((resolve) => setTimeout(resolve, POISON_EVERY_MS));
    }
  })();
  return {
    stop: async () => {
      poisoning = false;
      await loop;
      return sent;
    },
  };
}
