/**
 * Which backends the integration suite runs on: `server` (PostgreSQL and Redis, as teams run
 * Memex) or `embedded` (PGlite and the queues in process, as `npm start` runs with nothing but
 * Node). The global setup chooses: TEST_MODE when set, otherwise server mode when PostgreSQL
 * and Redis answer and embedded mode when they do not.
 */
export type TestMode = 'server' | 'embedded';

export function testMode(): TestMode {
  return process.env.MEMEX_TEST_MODE === 'embedded' ? 'embedded' : 'server';
}

export const EMBEDDED = testMode() === 'embedded';

/**
 * A describe block that tests what only server mode has (Redis, BullMQ, a database server
 * that can be cut off or shared by processes): skipped in embedded mode, saying why in its name.
 */
export function describeServerOnly(name: string, why: string, body: () => void): void {
  if (EMBEDDED) describe.skip(`${name} [server mode only: ${why}]`, body);
  else describe(name, body);
}

/** One test of what only server mode has: skipped in embedded mode, saying why in its name. */
export function itServerOnly(name: string, why: string, body: () => Promise<unknown>, timeout?: number): void {
  if (EMBEDDED) it.skip(`${name} [server mode only: ${why}]`, body, timeout);
  else it(name, body, timeout);
}
