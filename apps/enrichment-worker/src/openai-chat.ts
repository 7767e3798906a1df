import OpenAI from 'openai';
import type { Config } from '@memex/config';
import type { ChatMessage, ChatPort, TokenUsage } from '@memex/enrichment';

/**
 * Any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio) through the official
 * client, whose own retries (429, 5xx, connection errors, timeouts) and backoff apply.
 */
export class OpenAiChat implements ChatPort {
  private readonly client: OpenAI;

  constructor(private readonly config: Config) {
    this.client = new OpenAI({
      baseURL: config.LLM_BASE_URL,
      // Local servers (Ollama, vLLM) take any key; the client insists on one.
      apiKey: config.OPENAI_API_KEY ?? 'not-needed',
      timeout: config.LLM_TIMEOUT_MS,
      maxRetries: config.LLM_MAX_RETRIES,
    });
  }

  async complete(messages: ChatMessage[]): Promise<{ content: string; usage: TokenUsage }> {
    const response = await this.client.chat.completions.create({
      model: this.config.LLM_MODEL,
      messages,
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    const usage = response.usage;
    return {
      content: response.choices[0]?.message?.content ?? '',
      usage: {
        promptTokens: usage?.prompt_tokens ?? 0,
        completionTokens: usage?.completion_tokens ?? 0,
        totalTokens: usage?.total_tokens ?? (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0),
      },
    };
  }
}

export function llmConfigured(config: Config): boolean {
  return config.LLM_BASE_URL !== undefined || config.OPENAI_API_KEY !== undefined;
}
