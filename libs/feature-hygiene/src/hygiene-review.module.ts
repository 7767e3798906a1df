import { Module } from '@nestjs/common';
import { HygieneController } from './hygiene.controller';
import { HygieneReviewService } from './hygiene-review.service';

/** An operator's side of hygiene: runs and proposals to read, apply, reject and revert. */
@Module({
  controllers: [HygieneController],
  providers: [HygieneReviewService],
})
export class HygieneReviewModule {}
