import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { IntervalTask } from '@memex/server';
import { EntityRecorder } from './entity-recorder';

/** How often the worker looks for entity updates a failure left undone. */
const CATCH_UP_MS = 30_000;

/**
 * The entity store's safety net: a window whose entity update failed (a lost connection) is
 * read again on a later round, even when it was the session's last window and no job will
 * come for that session again.
 */
@Injectable()
export class EntityCatchUp implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EntityCatchUp.name);
  private readonly task = new IntervalTask(
    () => this.recorder.catchUp(),
    this.logger,
    'entity catch-up failed; trying again next interval',
  );

  constructor(private readonly recorder: EntityRecorder) {}

  onApplicationBootstrap(): void {
    this.task.start(CATCH_UP_MS);
  }

  onApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One round now (or the one in flight); returns how many sessions caught up. */
  runOnce(): Promise<number> {
    return this.task.runOnce();
  }
}
