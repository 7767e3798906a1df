import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ItemChanges, MemoryItemAdminRepository, NOTIFICATIONS, type NotificationSource } from '@memex/db';
import { TtlCache } from '@memex/server';

const CHANNEL = 'memex_memory_revision';

/**
 * Projects' memory revisions, kept in memory from PostgreSQL notifications (migration 0003
 * announces every change after commit), so a brain revalidation needs no database round
 * trip. Revisions only grow, so an entry keeps the highest value seen. While the listening
 * connection is down, nothing is kept and every read goes to the database.
 */
@Injectable()
export class RevisionCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RevisionCache.name);
  private readonly revisions = new TtlCache<number>(3_600_000, 50_000);
  private stop: (() => Promise<void>) | undefined;
  private listening = false;
  /** Bumped whenever listening starts or stops: a read that spans a change is not trusted. */
  private generation = 0;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  private readonly stopListening: () => void;

  constructor(
    private readonly items: MemoryItemAdminRepository,
    @Inject(NOTIFICATIONS) private readonly notifications: NotificationSource,
    changes: ItemChanges,
  ) {
    // This process's own writes are known at once, before their notification comes back.
    this.stopListening = changes.listen((projectId) => this.forget(projectId));
  }

  async onModuleInit(): Promise<void> {
    await this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopListening();
    this.closed = true;
    clearTimeout(this.retry);
    await this.stop?.();
  }

  async revision(projectId: string): Promise<number> {
    if (this.listening) {
      const known = this.revisions.get(projectId);
      if (known !== undefined) return known;
    }
    // Only a read made entirely while listening may be kept: a change notified before the
    // listener was back could otherwise be overwritten by an older value read meanwhile.
    const listeningAtStart = this.listening;
    const generation = this.generation;
    const read = await this.items.revision(projectId);
    if (listeningAtStart && this.listening && generation === this.generation) this.remember(projectId, read);
    return read;
  }

  /** This process changed the project: read its revision afresh next time. */
  forget(projectId: string): void {
    this.revisions.delete(projectId);
  }

  private remember(projectId: string, revision: number): void {
    const known = this.revisions.get(projectId);
    if (known === undefined || revision > known) this.revisions.set(projectId, revision);
  }

  private async listen(): Promise<void> {
    try {
      this.stop = await this.notifications.listen(CHANNEL, {
        onMessage: (payload) => {
          const [projectId, revision] = payload.split(':');
          if (projectId && revision) this.remember(projectId, Number(revision));
        },
        onLost: (error) => this.lost(error),
      });
      this.listening = true;
      this.generation += 1;
    } catch (error) {
      this.lost(error as Error);
    }
  }

  private lost(error: Error): void {
    if (this.closed) return;
    if (this.listening)
      this.logger.warn({ err: error.message }, 'revision notifications lost; reading revisions from the database');
    this.listening = false;
    // Whatever changed meanwhile was not heard: forget everything.
    this.revisions.clear();
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.listen();
    }, 1000);
    this.retry.unref();
  }
}
