/** The decorated classes do not form a valid application; the boot stops with every problem listed. */
export class BootValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`event sourcing configuration is invalid:\n  - ${problems.join('\n  - ')}`);
    this.name = 'BootValidationError';
  }
}
