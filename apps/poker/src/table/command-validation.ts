import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** class-validator options whose message names the property and the value it got. */
export function says(rule: string): ValidationOptions {
  return { message: ({ property, value }: ValidationArguments) => `${property} must be ${rule}, got ${JSON.stringify(value)}` };
}

export const wholeChips = says('a whole number of chips');
export const positiveChips = says('a positive whole number of chips');

/** For @Max on a count of chips: the limit keeps the value exact (a larger one may already be rounded by JSON). */
export function atMostChips(max: number): ValidationOptions {
  return says(`at most ${max} chips`);
}

/** A whole number of chips from 1 to `max` (for entries of arrays, which the decorators do not reach). */
export function isPositiveChips(value: unknown, max: number): boolean {
  return Number.isSafeInteger(value) && (value as number) > 0 && (value as number) <= max;
}

/**
 * Checks every entry of an array property. Unlike @ValidateNested, it also sees entries that
 * arrive as plain objects (commands built in process by sagas and process managers).
 */
export function EachEntry(name: string, check: (entry: Record<string, unknown>) => boolean, rule: string): PropertyDecorator {
  const validate = (value: unknown) => Array.isArray(value) && value.every((entry) => entry !== null && typeof entry === 'object' && check(entry));
  return ValidateBy({ name, validator: { validate } }, says(rule));
}
