import { createHash } from 'node:crypto';

/**
 * A UUID-shaped id derived from its parts: the command a saga emits for an event gets the same id
 * on every redelivery, so the gateway's idempotency stores it once.
 */
export function deterministicId(...parts: Array<string | number>): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
