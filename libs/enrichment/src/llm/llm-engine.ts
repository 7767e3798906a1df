import { NO_USAGE, type EngineInput, type EngineOutput, type EnrichmentEngine, type TokenUsage } from '../candidate';
import type { ChatPort } from './chat-port';
import { parseModelOutput } from './parse-output';
import { buildPrompt, repairPrompt } from './prompt';

function add(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
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

export class LlmEngine implements EnrichmentEngine {
  readonly name = 'llm' as const;

  constructor(private readonly chat: ChatPort) {}

  async extract(input: EngineInput): Promise<EngineOutput> {
    const messages = buildPrompt(input);
    const first = await this.chat.complete(messages);
    let usage = add(NO_USAGE, first.usage);
    const parsed = parseModelOutput(first.content);
    if (parsed.ok) return { candidates: parsed.items, usage, calls: 1 };

    const second = await this.chat.complete([
      ...messages,
      { role: 'assistant', content: first.content },
      repairPrompt(parsed.problem),
    ]);
    usage = add(usage, second.usage);
    const repaired = parseModelOutput(second.content);
    if (repaired.ok) return { candidates: repaired.items, usage, calls: 2 };
    throw new MalformedModelOutputError(`model output unusable after one repair: ${repaired.problem}`, usage);
  }
}
