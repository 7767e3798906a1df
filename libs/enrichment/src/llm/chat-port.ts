import type { TokenUsage } from '../candidate';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The one thing the LLM engine needs from the outside world: a chat completion. */
export interface ChatPort {
  complete(messages: ChatMessage[]): Promise<{ content: string; usage: TokenUsage }>;
}
