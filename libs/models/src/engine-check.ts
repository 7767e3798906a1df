import { enrichmentEngine, type Config } from '@memex/config';
import { MODEL_OUTPUT_JSON_SCHEMA, parseModelOutput, type TokenUsage } from '@memex/enrichment';
import { modelChat } from './model-engine';
import { OpenAiChat, type OutputMode } from './openai-chat';

/** What one tiny request to the configured engine showed. */
export interface EngineCheck {
  engine: 'local' | 'openai' | 'claude-code';
  /** The model asked; null for the local engine. */
  model: string | null;
  /** Where: the endpoint, or the command run. */
  target: string | null;
  ok: boolean;
  /** How the endpoint was found to take JSON (openai only). */
  mode?: OutputMode;
  ms?: number;
  usage?: TokenUsage;
  problem?: string;
}

const PING = [
  { role: 'system' as const, content: 'Answer with exactly this JSON and nothing else: {"items": []}' },
  { role: 'user' as const, content: 'Check.' },
];

/**
 * Asks the configured engine one tiny question, as enrichment would ask it (same client,
 * same output-mode detection), and says what it found: the model, the output mode it took,
 * the latency, the tokens.
 */
export async function checkEngine(config: Config): Promise<EngineCheck> {
  const engine = enrichmentEngine(config);
  const chat = modelChat(config);
  if (!chat) return { engine, model: null, target: null, ok: true };
  const target =
    engine === 'openai' ? (config.LLM_BASE_URL ?? 'https://api.openai.com/v1') : config.CLAUDE_CODE_COMMAND;
  const started = Date.now();
  try {
    const answer = await chat.complete(PING, { schema: MODEL_OUTPUT_JSON_SCHEMA });
    const parsed = parseModelOutput(answer.content);
    return {
      engine,
      model: chat.model,
      target,
      ok: parsed.ok,
      ...(chat instanceof OpenAiChat && chat.mode ? { mode: chat.mode } : {}),
      ms: Date.now() - started,
      usage: answer.usage,
      ...(parsed.ok ? {} : { problem: `the answer was not usable: ${parsed.problem}` }),
    };
  } catch (error) {
    return {
      engine,
      model: chat.model,
      target,
      ok: false,
      ms: Date.now() - started,
      problem: (error as Error).message,
    };
  }
}
