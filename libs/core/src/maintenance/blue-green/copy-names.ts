/** The copy that a switch put aside: the way back. */
export const PREVIOUS_COPY = 'previous';

/** The checkpoint of a projector's copy: `<projector>@<copy>`. */
export function copyCheckpoint(projector: string, copy: string): string {
  return `${projector}@${copy}`;
}

/** A fresh copy id; it also names the copy's tables, so that their index names never meet an earlier copy's. */
export function newCopyId(): string {
  return `b${Date.now().toString(36)}`;
}

/** The copies of a projector that unfinished builds left, found by their checkpoints. */
export function leftoverCopies(projector: string, checkpoints: Iterable<string>): string[] {
  const prefix = copyCheckpoint(projector, 'b');
  return [...checkpoints].filter((name) => name.startsWith(prefix)).map((name) => name.slice(projector.length + 1));
}
