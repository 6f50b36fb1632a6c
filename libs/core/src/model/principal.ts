/**
 * Who sends a command or reads an aggregate, as the application's authentication established it.
 * Over HTTP it is `request.user` (the convention of Passport and of most Nest guards); its `id` is
 * recorded on every event the command stores, under the metadata key `principal`.
 */
export interface Principal {
  id: string;
  [claim: string]: unknown;
}
