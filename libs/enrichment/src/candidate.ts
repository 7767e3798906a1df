import { z } from 'zod';
import {
  commitRangeSchema,
  confidenceSchema,
  dedupHintSchema,
  evidenceSpanSchema,
  importanceSchema,
  newItemContentShape,
  schemaKeySchema,
  type EngineEvent,
  type ModelEngineName,
} from '@memex/domain';

/** An item as an engine proposes it, before its evidence is verified. */
export const candidateItemSchema = z.object({
  ...newItemContentShape,
  schemaKey: schemaKeySchema,
  dedupHint: dedupHintSchema,
  importance: importanceSchema,
  confidence: confidenceSchema,
  commitRange: commitRangeSchema.nullable().optional().default(null),
  /** A BugFix seen fixed, or a Todo seen done, in these events. */
  resolved: z.boolean().optional().default(false),
  /**
   * How much the item is worth keeping, 0–1: a session holds only its most salient items.
   * Engines that do not rank leave it out (it is then derived from importance and confidence).
   */
  salience: z.number().min(0).max(1).optional(),
  evidence: z.array(evidenceSpanSchema).min(1),
});
export type CandidateItem = z.infer<typeof candidateItemSchema>;
export type CandidateInput = z.input<typeof candidateItemSchema>;

export type { EngineEvent, ModelEngineName } from '@memex/domain';

export interface ExistingHint {
  dedupHint: string;
  type: string;
  title: string;
}

export interface EngineInput {
  events: readonly EngineEvent[];
  /**
   * Events of the session's current turn read before the window: a turn that began in an
   * earlier window is read whole. For reading and quoting only; the window's events are the
   * ones to extract from.
   */
  context?: readonly EngineEvent[];
  /** Hints of the project's items most related to these events, for the engine to reuse. */
  hints: readonly ExistingHint[];
  /**
   * The window ends where the session ended (Claude Code's SessionEnd, an idle transcript imported
   * whole): its last turn is over, even when a tool's event is the last it has. Only the local
   * engine reads turns; a model reads the window as it is.
   */
  ended?: boolean;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** What the calls cost in US dollars, when the engine reports it (Claude Code does). */
  costUsd?: number;
}

export type EngineName = 'local' | ModelEngineName;

export interface EngineOutput {
  candidates: CandidateItem[];
  /** A model's final answer, as it came: kept so a redelivered window is not paid for twice. */
  answer?: string;
  /** Characters sent to the model: what a request's size is logged as. */
  inputChars?: number;
  /**
   * Events whose conclusions the session itself rejected later ("no, that's not it"): items
   * resting on them alone are not knowledge, even those an earlier window stored.
   */
  retracted?: string[];
  usage: TokenUsage;
  /** Model calls made, repairs included. */
  calls: number;
}

export interface EnrichmentEngine {
  readonly name: EngineName;
  extract(input: EngineInput): Promise<EngineOutput>;
}

export const NO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
