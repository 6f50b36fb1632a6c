/** Everything the scheduling specs wait on settles through microtasks, so one macrotask turn means "all progress made". */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether a promise has settled yet, readable without awaiting it. */
export function settledFlag(promise: Promise<unknown>): { readonly settled: boolean } {
  const flag = { settled: false };
  promise.then(
    () => (flag.settled = true),
    () => (flag.settled = true),
  );
  return flag;
}
