import type { Transaction } from 'kysely';
import type { DB } from '../schema';

/** Every change to a project's items bumps its memory revision, in the transaction that made it. */
export async function bumpRevision(trx: Transaction<DB>, projectId: string): Promise<void> {
  await trx
    .updateTable('projects')
    .set((eb) => ({ memory_revision: eb('memory_revision', '+', 1) }))
    .where('id', '=', projectId)
    .execute();
}
