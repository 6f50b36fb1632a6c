/**
 * What a reaction asks to happen once its transaction committed (a projector's changed keys told to
 * live queries). The pipeline runs it after the commit; a rolled-back transaction drops it.
 */
export class AfterCommit {
  private readonly work: Array<() => void> = [];

  add(work: () => void): void {
    this.work.push(work);
  }

  /** Called by the pipeline once the commit succeeded. */
  run(): void {
    for (const work of this.work.splice(0)) work();
  }
}
