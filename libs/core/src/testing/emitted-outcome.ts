import { isFact, toEmissions, type CommandEmission, type Emitted, type FactEmission } from '../processing/emissions.js';

/** What a saga or process manager sent: the commands (as instances), with their options, and the facts. */
export interface EmittedOutcome {
  commands: object[];
  /** The commands with their send options (aggregateId, expectedSequence, mergeStrategy). */
  emissions: CommandEmission[];
  facts: FactEmission[];
}

export function emittedOutcome(result: Emitted | Emitted[] | void | null | undefined): EmittedOutcome {
  const all = toEmissions(result);
  const emissions = all.filter((emission): emission is CommandEmission => !isFact(emission));
  return { commands: emissions.map((emission) => emission.command), emissions, facts: all.filter(isFact) };
}
