/** What to write of a thrown value in a log line or a status report: an Error's message, else the value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
