// The two functions both harnesses time: mitata (native.mjs) and versus
// (worker.mjs).

import { createHash } from "node:crypto";

/** 1 MB: 10^6 bytes, versus's "1MB". */
export const SIZE = 1_000_000;

/** The deterministic 1 MB input: byte i is i*31 mod 256, as in every language. */
export function makeData() {
  const data = Buffer.alloc(SIZE);
  for (let i = 0; i < SIZE; i++) data[i] = (i * 31) % 256;
  return data;
}

/** SHA-256 of data with node:crypto: the raw 32-byte digest. */
export function sha256(data) {
  return createHash("sha256").update(data).digest();
}

const EMPTY = new Uint8Array(0);

/** The empty operation: returns an empty byte string. */
export function noop() {
  return EMPTY;
}
