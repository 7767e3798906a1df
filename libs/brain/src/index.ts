export * from './assemble';
export * from './classify';
export * from './hidden-characters';
export * from './render';
export * from './scoring';
export * from './summary';
