import { Injectable, Logger } from '@nestjs/common';
import type { JobPayload, QueueJob } from '@memex/queue';
import type { JobHandler } from '@memex/server';
import { EmbeddingSyncService, type SyncReport } from './embedding-sync.service';

@Injectable()
export class SyncEmbeddingsHandler implements JobHandler<'syncEmbeddings'> {
  readonly job = 'syncEmbeddings' as const;
  private readonly logger = new Logger(SyncEmbeddingsHandler.name);

  constructor(private readonly sync: EmbeddingSyncService) {}

  async handle(payload: JobPayload<'syncEmbeddings'>, job: QueueJob): Promise<SyncReport> {
    const report = await this.sync.sync(payload.projectId);
    if (report.embedded + report.payloadOnly > 0) {
      this.logger.log({ jobId: job.id, projectId: payload.projectId, ...report }, 'embeddings synced');
    }
    return report;
  }
}
