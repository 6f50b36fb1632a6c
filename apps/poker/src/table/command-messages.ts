import type { ValidationArguments, ValidationOptions } from 'class-validator';

/** class-validator options whose message names the property and the value it got. */
export function says(rule: string): ValidationOptions {
  return { message: ({ property, value }: ValidationArguments) => `${property} must be ${rule}, got ${JSON.stringify(value)}` };
}

export const wholeChips = says('a whole number of chips');
export const positiveChips = says('a positive whole number of chips');
