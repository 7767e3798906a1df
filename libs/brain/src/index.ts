export * from './assemble';
export * from './classify';
export * from './render';
export * from './scoring';
export * from './summary';
