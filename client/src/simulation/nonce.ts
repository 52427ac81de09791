import { randomBytes } from 'node:crypto';

/** A fresh nonce for each page load, so only the page's own script runs. */
export function createNonce(): string {
  return randomBytes(18).toString('base64');
}
