/** Injection token for the shared `Kysely<DB>` instance. */
export const KYSELY = Symbol('KYSELY');

/** Injection token for the pg Pool behind Kysely, for the few hot statements run as prepared statements. */
export const PG_POOL = Symbol('PG_POOL');
