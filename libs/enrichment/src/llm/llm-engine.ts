import { NO_USAGE, type EngineInput, type EngineOutput, type EnrichmentEngine, type TokenUsage } from '../candidate';
import type { ChatPort } from './chat-port';
import { MODEL_OUTPUT_JSON_SCHEMA, parseModelOutput } from './parse-output';
import { buildPrompt, repairPrompt } from './prompt';

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const costUsd = a.costUsd === undefined && b.costUsd === undefined ? undefined : (a.costUsd ?? 0) + (b.costUsd ?? 0);
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    ...(costUsd === undefined ? {} : { costUsd }),
  };
}

/** The model's answer was unusable even after one repair; carries the tokens it cost. */
export class MalformedModelOutputError extends Error {
  constructor(
    message: string,
    readonly usage: TokenUsage,
  ) {
    super(message);
    this.name = 'MalformedModelOutputError';
  }
}

/** A model behind a chat port: one request, and one repair round with what was wrong. */
export class LlmEngine implements EnrichmentEngine {
  readonly name;
  readonly model: string;

  constructor(private readonly chat: ChatPort) {
    this.name = chat.engine;
    this.model = chat.model;
  }

  async extract(input: EngineInput): Promise<EngineOutput> {
    const messages = buildPrompt(input);
    const request = { schema: MODEL_OUTPUT_JSON_SCHEMA };
    const inputChars = messages.reduce((n, m) => n + m.content.length, 0);
    const first = await this.chat.complete(messages, request);
    let usage = addUsage(NO_USAGE, first.usage);
    const parsed = parseModelOutput(first.content);
    if (parsed.ok) return { candidates: parsed.items, answer: first.content, inputChars, usage, calls: 1 };

    const second = await this.chat.complete(
      [...messages, { role: 'assistant', content: first.content }, repairPrompt(parsed.problem)],
      request,
    );
    usage = addUsage(usage, second.usage);
    const repaired = parseModelOutput(second.content);
    if (repaired.ok) return { candidates: repaired.items, answer: second.content, inputChars, usage, calls: 2 };
    throw new MalformedModelOutputError(`model output unusable after one repair: ${repaired.problem}`, usage);
  }
}
