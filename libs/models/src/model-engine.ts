import { enrichmentEngine, type Config } from '@memex/config';
import { LlmEngine, type ChatPort } from '@memex/enrichment';
import { ClaudeCodeChat } from './claude-code-chat';
import { OpenAiChat } from './openai-chat';

/** The chat port of the configured model engine; none when sessions are enriched locally. */
export function modelChat(config: Config): ChatPort | undefined {
  switch (enrichmentEngine(config)) {
    case 'openai':
      return new OpenAiChat(config);
    case 'claude-code':
      return new ClaudeCodeChat(config);
    case 'local':
      return undefined;
  }
}

export function modelEngine(config: Config): LlmEngine | undefined {
  const chat = modelChat(config);
  return chat && new LlmEngine(chat);
}
