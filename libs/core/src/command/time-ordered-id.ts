import { randomFillSync } from 'node:crypto';

const RANDOM_BYTES = 10;
/** Random bytes drawn 256 ids at a time: one call to the system's generator per id costs more than the rest of the id. */
const entropy = new Uint8Array(RANDOM_BYTES * 256);
let used = entropy.length;
const bytes = new Uint8Array(16);
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. Event and command ids
 * are indexed; v4 ids land on a random index page each, so a group commit of N appends dirtied N pages
 * of every such index, while time-ordered ids fill the same rightmost pages. Written here because
 * Node 20's crypto makes v4 only and the `uuid` package is no dependency of ours.
 */
export function timeOrderedId(): string {
  if (used === entropy.length) {
    randomFillSync(entropy);
    used = 0;
  }
  bytes.set(entropy.subarray(used, used + RANDOM_BYTES), 6);
  used += RANDOM_BYTES;
  const now = Date.now();
  bytes[0] = now / 2 ** 40;
  bytes[1] = now / 2 ** 32;
  bytes[2] = now >>> 24;
  bytes[3] = now >>> 16;
  bytes[4] = now >>> 8;
  bytes[5] = now;
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  let id = '';
  for (let i = 0; i < 16; i++) {
    id += HEX[bytes[i]];
    if (i === 3 || i === 5 || i === 7 || i === 9) id += '-';
  }
  return id;
}
