import { Injectable } from '@nestjs/common';

export type ItemsChangedListener = (projectId: string) => void;

/**
 * "A project's items changed", said once by the one item writer after its transaction
 * commits. Whatever keeps something derived from items in this process (the brain's cached
 * revision, the embedding sync) listens here instead of being told by each writer. Other
 * processes learn of the change from the revision's database notification.
 */
@Injectable()
export class ItemChanges {
  private readonly listeners = new Set<ItemsChangedListener>();

  /** Returns the way to stop listening. */
  listen(listener: ItemsChangedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  announce(projectIds: Iterable<string>): void {
    for (const projectId of new Set(projectIds)) {
      for (const listener of this.listeners) listener(projectId);
    }
  }
}
