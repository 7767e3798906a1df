import { createHash } from 'node:crypto';

/**
 * Which key a file on disk belongs to (the key names the project; a server that moved keeps
 * it), without writing the key itself down: the spool's directories and the cached brains
 * are named by it.
 */
export function keyDigest(apiKey: string | undefined): string {
  return createHash('sha256')
    .update(apiKey ?? '')
    .digest('hex')
    .slice(0, 16);
}
