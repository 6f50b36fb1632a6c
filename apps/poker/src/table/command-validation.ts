import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** class-validator options whose message names the property and the value it got. */
export function says(rule: string): ValidationOptions {
  return { message: ({ property, value }: ValidationArguments) => `${property} must be ${rule}, got ${JSON.stringify(value)}` };
}

export const wholeChips = says('a whole number of chips');
export const positiveChips = says('a positive whole number of chips');

export function isPositiveChips(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

/**
 * Checks every entry of an array property. Unlike @ValidateNested, it also sees entries that
 * arrive as plain objects (commands built in process by sagas and process managers).
 */
export function EachEntry(name: string, check: (entry: Record<string, unknown>) => boolean, rule: string): PropertyDecorator {
  const validate = (value: unknown) => Array.isArray(value) && value.every((entry) => entry !== null && typeof entry === 'object' && check(entry));
  return ValidateBy({ name, validator: { validate } }, says(rule));
}
