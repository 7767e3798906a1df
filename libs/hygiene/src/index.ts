export * from './types';
export { runRules } from './run-rules';
export { proposalFingerprint, FINGERPRINT_MAX } from './fingerprint';
export { qualityPatch, needsOperatorInput, cutText, UNSUPPORTED_CONFIDENCE, type EditableItem } from './quality-fix';
export { qualityProblems } from './quality';
export { trigrams, trigramSimilarity, jaccard, itemText } from './trigrams';
export { mergedKeep, type MergeSide } from './merge-fix';
export { isLive, type HeldRule } from './lifecycle-rules';
export * from './review-rules';
