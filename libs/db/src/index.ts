export * from './bootstrap-database';
export * from './database';
export * from './migrations';
export * from './repositories/project.repository';
export * from './repositories/raw-event.repository';
export * from './repositories/session.repository';
export * from './schema';
export * from './tokens';
