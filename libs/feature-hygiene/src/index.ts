export * from './hygiene-passes.module';
export * from './hygiene-review.module';
export * from './hygiene.scheduler';
