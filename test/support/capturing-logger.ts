import type { LoggerService } from '@nestjs/common';

/** A Nest logger that keeps warnings and errors, so suites can check that something was logged. */
export class CapturingLogger implements LoggerService {
  readonly warnings: string[] = [];
  readonly errors: string[] = [];

  log(): void {}

  warn(message: unknown): void {
    this.warnings.push(String(message));
  }

  error(message: unknown): void {
    this.errors.push(String(message));
  }
}
