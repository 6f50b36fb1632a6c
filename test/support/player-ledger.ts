/** An event as both the store and `GET .../events` give it. */
export interface LedgerEvent {
  type: string;
  sequence: number;
  payload: unknown;
  metadata?: unknown;
}

/** What became of one command sent to a player: stored, or refused with this error code. */
export interface CommandOutcome {
  commandId: string;
  commandType: string;
  amount?: number;
  outcome: 'stored' | string;
}

const REFUSALS = ['FAILED_PRECONDITION', 'SEQUENCE_MISMATCH', 'ABORTED'];

/**
 * The promises concurrency must keep on one player's stream, as a list of violations (empty when
 * all hold): sequences 1..n without gaps or repeats; every balance decided on the balance just
 * before it (a decision on stale state is a lost update); deposits minus withdrawals, stored and
 * acknowledged alike, equal the bankroll; every stored command's events are there and every
 * refused one has a code and left no event.
 */
export function ledgerViolations(events: readonly LedgerEvent[], outcomes: readonly CommandOutcome[], bankroll: number): string[] {
  const problems: string[] = [];
  events.forEach((event, i) => {
    if (event.sequence !== i + 1) problems.push(`event ${i} has sequence ${event.sequence}`);
  });
  let balance = 0;
  let stored = 0;
  for (const { type, sequence, payload } of events) {
    const { amount, newBalance } = payload as { amount: number; newBalance: number };
    if (type !== 'FundsDeposited' && type !== 'FundsWithdrawn') continue;
    const signed = type === 'FundsDeposited' ? amount : -amount;
    if (newBalance !== balance + signed) problems.push(`${type} at ${sequence} says ${newBalance}, but ${balance} ${signed >= 0 ? '+' : '-'} ${amount} is ${balance + signed}`);
    balance = newBalance;
    stored += signed;
  }
  if (stored !== bankroll) problems.push(`stored deposits minus withdrawals are ${stored}, the bankroll is ${bankroll}`);
  let acknowledged = 0;
  for (const { commandId, commandType, amount, outcome } of outcomes) {
    const own = events.filter((event) => (event.metadata as { commandId?: string } | undefined)?.commandId === commandId).length;
    if (outcome === 'stored') {
      if (own === 0) problems.push(`${commandType} ${commandId} was acknowledged but has no event`);
      if (commandType === 'DepositFunds') acknowledged += amount!;
      if (commandType === 'WithdrawFunds') acknowledged -= amount!;
    } else {
      if (!REFUSALS.includes(outcome)) problems.push(`${commandType} ${commandId} failed with ${outcome}, not a refusal code`);
      if (own > 0) problems.push(`${commandType} ${commandId} was refused (${outcome}) but left ${own} event(s)`);
    }
  }
  if (acknowledged !== bankroll) problems.push(`acknowledged deposits minus withdrawals are ${acknowledged}, the bankroll is ${bankroll}`);
  return problems;
}
