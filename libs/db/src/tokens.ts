/** Injection token for the shared `Kysely<DB>` instance. */
export const KYSELY = Symbol('KYSELY');
