import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

/** Removes what the global setup left for the run: the migrated PGlite template of embedded mode. */
export default function globalTeardown(): void {
  const template = process.env.MEMEX_TEST_PGLITE_TEMPLATE;
  if (template) rmSync(dirname(template), { recursive: true, force: true });
}
