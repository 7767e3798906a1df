import { redactUrl } from '@memex/config';
import {
  CopyRefusedError,
  copyDatabase,
  createDatabase,
  createEmbeddedDatabase,
  ensureDatabaseExists,
  migrateInProcess,
  migrateToLatest,
} from '@memex/db';
import { embeddedDataDir, lockHome, runMain } from '@memex/server';

const USAGE = 'usage: memex move --to postgres://user:password@host:5432/memex';

/**
 * `memex move --to <url>`: carries an embedded home (MEMEX_HOME) into a PostgreSQL server, for
 * a team outgrowing one machine. Memex must be stopped (the home's lock says so otherwise).
 * Both sides are brought up to this release's schema, every table is copied in one
 * transaction of the target (an empty database), the row counts are checked, and it says how
 * to start on the server. The home is left as it was.
 */
runMain(async (config) => {
  const at = process.argv.indexOf('--to');
  const url = at >= 0 ? process.argv[at + 1] : undefined;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    process.stderr.write(`memex move: say where to with --to\n${USAGE}\n`);
    process.exit(2);
  }
  const release = lockHome(config.MEMEX_HOME);
  const source = await createEmbeddedDatabase(embeddedDataDir(config));
  try {
    await migrateInProcess(source);
    await ensureDatabaseExists(url);
    const target = createDatabase({ url, poolSize: 2, applicationName: 'memex-move' });
    try {
      await migrateToLatest(target, url);
      const out = (line: string) => process.stdout.write(`${line}\n`);
      out(`Moving ${config.MEMEX_HOME} into ${redactUrl(url)}`);
      const copied = await copyDatabase(source, target, (table, rows) => out(`  ${table.padEnd(28)} ${rows} rows`));
      const total = Object.values(copied).reduce((a, b) => a + b, 0);
      out(`Copied ${total} rows in ${Object.keys(copied).length} tables; the counts match on both sides.`);
      out('');
      out('Start Memex on the server (the same projects and keys; your local key stays where it is):');
      out(
        `  DATABASE_URL='${redactUrl(url)}' REDIS_URL=redis://127.0.0.1:6379 MEMEX_LOCAL_STATE_DIR=${config.MEMEX_HOME} npm start`,
      );
      out(`${config.MEMEX_HOME} is unchanged; remove it once the server has everything you need.`);
    } finally {
      await target.destroy();
    }
  } catch (error) {
    if (error instanceof CopyRefusedError) {
      process.stderr.write(`memex move: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  } finally {
    await source.destroy();
    release();
  }
});
