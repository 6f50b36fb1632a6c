import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';

/**
 * What is wrong with a body that has top-level fields its class does not declare (a field is declared
 * by a class-validator decorator, or named in `alsoDeclared`); undefined when there are none. Such
 * fields would otherwise be kept: in a parked command's dead letter, say, at whatever size.
 */
export function undeclaredFields(type: Type, body: Record<string, unknown>, alsoDeclared: readonly string[] = []): string | undefined {
  const validated = validatedFields(type);
  const unknown = Object.keys(body).filter((field) => !validated.has(field) && !alsoDeclared.includes(field));
  if (unknown.length === 0) return undefined;
  const declared = new Set([...alsoDeclared, ...validated]);
  return `${type.name} has no field ${named(unknown)}; it takes ${[...declared].join(', ') || 'no fields'}`;
}

/** Decorators run when a class is defined, so a class's validated fields are looked up once (class-validator filters all its rules on each lookup). */
const VALIDATED = new WeakMap<Type, ReadonlySet<string>>();

function validatedFields(type: Type): ReadonlySet<string> {
  let fields = VALIDATED.get(type);
  if (!fields) {
    fields = new Set(getMetadataStorage().getTargetValidationMetadatas(type, '', true, false).map((rule) => rule.propertyName));
    VALIDATED.set(type, fields);
  }
  return fields;
}

/** A caller's field names, as few and as short as an answer needs. */
function named(fields: string[]): string {
  const shown = fields.slice(0, 5).map((field) => `'${field.length > 40 ? `${field.slice(0, 40)}...` : field}'`);
  return fields.length > 5 ? `${shown.join(', ')} and ${fields.length - 5} more` : shown.join(', ');
}
