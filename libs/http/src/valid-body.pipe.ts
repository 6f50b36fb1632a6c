import { type ArgumentMetadata, BadRequestException, Injectable, type PipeTransform, type Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ErrorCode, EventSourcingError, InvalidArgumentError, validateCommand } from '@nest-es/core';
import { assertObjectBody } from './command-body.js';
import { undeclaredFields } from './declared-fields.js';

/**
 * The checks the framework's command route makes, for an application's own routes:
 * `@Body(ValidBodyPipe) body: SignUp`. The body must be a JSON object nested at most 32 levels,
 * with no prototype key (`__proto__`, `constructor`, `prototype`) at any depth and no field the
 * class does not declare (a field is declared by a class-validator decorator; `@Allow()` declares
 * one without a rule). It becomes an instance of the parameter's class, validated by
 * class-validator. A refusal is 400 `{statusCode, code: 'INVALID_ARGUMENT', message}` with or
 * without the framework's error filter; no body at all is `{}`, so the answer names each missing field.
 */
@Injectable()
export class ValidBodyPipe implements PipeTransform<unknown, Promise<unknown>> {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body') return value;
    const type = isClass(metadata.metatype) ? metadata.metatype : undefined;
    const body = value === undefined ? {} : value;
    try {
      assertObjectBody(body, type?.name ?? 'the request');
      if (!type) return body;
      const undeclared = undeclaredFields(type, body);
      if (undeclared) throw new InvalidArgumentError(undeclared);
      const instance = plainToInstance(type, body) as object;
      await validateCommand(instance);
      return instance;
    } catch (error) {
      if (!(error instanceof EventSourcingError)) throw error;
      throw new BadRequestException({ statusCode: 400, code: ErrorCode.INVALID_ARGUMENT, message: error.message, ...error.details });
    }
  }
}

function isClass(type: ArgumentMetadata['metatype']): type is Type {
  return typeof type === 'function' && ![Object, String, Number, Boolean, Array].includes(type as never);
}
