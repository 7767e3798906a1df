import { Logger } from '@nestjs/common';
import OpenAI from 'openai';
import type { Config } from '@memex/config';
import {
  ChatUnavailableError,
  type ChatAnswer,
  type ChatMessage,
  type ChatPort,
  type ChatRequest,
} from '@memex/enrichment';

/**
 * How an endpoint is asked for JSON, most constrained first: the item schema itself
 * (structured outputs), any JSON object, or plain text that the answer's parser reads JSON out
 * of. Local servers support some of these and not others.
 */
export const OUTPUT_MODES = ['json_schema', 'json_object', 'text'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** The mode each endpoint and model was found to accept, found once per process. */
const accepted = new Map<string, OutputMode>();

function responseFormat(mode: OutputMode, schema: Record<string, unknown>) {
  if (mode === 'json_schema') {
    // Not strict: strict mode demands every property required, which optional fields are not.
    return {
      response_format: { type: 'json_schema' as const, json_schema: { name: 'memory_items', schema, strict: false } },
    };
  }
  return mode === 'json_object' ? { response_format: { type: 'json_object' as const } } : {};
}

/** An endpoint saying it does not take this way of asking for JSON (vLLM, llama.cpp and Ollama word it differently). */
function refusesFormat(error: unknown): boolean {
  return (
    error instanceof OpenAI.APIError &&
    (error.status === 400 || error.status === 422) &&
    /response_format|json_schema|json_object|schema|format|not supported|unsupported|unknown/i.test(error.message)
  );
}

/**
 * Any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio, llama.cpp's server) through
 * the official client, whose own retries (429, 5xx, connection errors, timeouts) and backoff
 * apply. What still fails after them is reported as the model being unavailable.
 */
export class OpenAiChat implements ChatPort {
  readonly engine = 'openai' as const;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly key: string;
  private readonly logger = new Logger('OpenAiChat');

  constructor(config: Config) {
    this.model = config.LLM_MODEL;
    this.client = new OpenAI({
      baseURL: config.LLM_BASE_URL,
      // Local servers (Ollama, vLLM) take any key; the client insists on one.
      apiKey: config.OPENAI_API_KEY ?? 'not-needed',
      timeout: config.LLM_TIMEOUT_MS,
      maxRetries: config.LLM_MAX_RETRIES,
    });
    this.key = `${this.client.baseURL}|${this.model}`;
  }

  /** The output mode this endpoint was found to accept, once it has answered. */
  get mode(): OutputMode | undefined {
    return accepted.get(this.key);
  }

  async complete(messages: ChatMessage[], request: ChatRequest): Promise<ChatAnswer> {
    let mode = accepted.get(this.key) ?? OUTPUT_MODES[0];
    for (;;) {
      try {
        const response = await this.client.chat.completions.create({
          model: this.model,
          messages,
          temperature: 0,
          ...responseFormat(mode, request.schema),
        });
        if (accepted.get(this.key) !== mode) {
          accepted.set(this.key, mode);
          this.logger.log({ endpoint: this.client.baseURL, model: this.model, mode }, 'model output mode chosen');
        }
        const usage = response.usage;
        return {
          content: response.choices[0]?.message?.content ?? '',
          usage: {
            promptTokens: usage?.prompt_tokens ?? 0,
            completionTokens: usage?.completion_tokens ?? 0,
            totalTokens: usage?.total_tokens ?? (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0),
          },
        };
      } catch (error) {
        const next = OUTPUT_MODES[OUTPUT_MODES.indexOf(mode) + 1];
        if (next && refusesFormat(error)) {
          mode = next;
          continue;
        }
        if (error instanceof OpenAI.APIError) {
          throw new ChatUnavailableError(
            `${this.client.baseURL} answered ${error.status ?? 'no status'}: ${error.message}`,
          );
        }
        throw error;
      }
    }
  }
}

/** Forgets what endpoints were found to accept (tests start each endpoint afresh). */
export function forgetOutputModes(): void {
  accepted.clear();
}
