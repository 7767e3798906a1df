import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import { generateApiKey, hashApiKey, newId, type ProjectSummary } from '@memex/domain';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';

export interface ProjectWithKey {
  projectId: string;
  name: string;
  apiKey: string;
}

@Injectable()
export class ProjectRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  /** Creates a project and its first key together; the plain key is returned once and never stored. */
  async createWithKey(name: string): Promise<ProjectWithKey> {
    const projectId = newId();
    const apiKey = generateApiKey();
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('projects').values({ id: projectId, name }).execute();
      await trx
        .insertInto('api_keys')
        .values({ id: newId(), project_id: projectId, key_hash: hashApiKey(apiKey), key_prefix: apiKey.slice(0, 8) })
        .execute();
    });
    return { projectId, name, apiKey };
  }

  async findById(projectId: string): Promise<{ id: string; name: string; memoryRevision: number } | undefined> {
    const row = await this.db
      .selectFrom('projects')
      .select(['id', 'name', 'memory_revision'])
      .where('id', '=', projectId)
      .executeTakeFirst();
    return row && { id: row.id, name: row.name, memoryRevision: row.memory_revision };
  }

  /** Projects in id order after `cursor`, with how many items and sessions each holds. */
  async listWithCounts(
    cursor: string | undefined,
    limit: number,
  ): Promise<{ projects: ProjectSummary[]; nextCursor: string | null }> {
    let query = this.db
      .selectFrom('projects as p')
      .select([
        'p.id',
        'p.name',
        'p.created_at',
        sql<number>`(select count(*) from memory_items m where m.project_id = p.id)::int`.as('items'),
        sql<number>`(select count(*) from sessions s where s.project_id = p.id)::int`.as('sessions'),
      ]);
    if (cursor) query = query.where('p.id', '>', cursor);
    const rows = await query
      .orderBy('p.id')
      .limit(limit + 1)
      .execute();
    const projects = rows.slice(0, limit).map((r) => ({
      projectId: r.id,
      name: r.name,
      createdAt: r.created_at,
      items: r.items,
      sessions: r.sessions,
    }));
    return { projects, nextCursor: rows.length > limit ? projects[projects.length - 1]!.projectId : null };
  }

  /** Project ids in id order after `after`, a page at a time. */
  async pageIds(after: string | null, limit: number): Promise<string[]> {
    let query = this.db.selectFrom('projects').select('id');
    if (after) query = query.where('id', '>', after);
    const rows = await query.orderBy('id').limit(limit).execute();
    return rows.map((r) => r.id);
  }

  /** The project a live (unrevoked) key belongs to. */
  async findProjectIdByKeyHash(keyHash: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select('project_id')
      .where('key_hash', '=', keyHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row?.project_id;
  }
}
