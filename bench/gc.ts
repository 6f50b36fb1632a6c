/** A full collection when node runs with --expose-gc (as `npm run bench` does), so a measurement does not pay for the garbage of the one before. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
