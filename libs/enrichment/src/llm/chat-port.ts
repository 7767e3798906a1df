import type { ModelEngineName, TokenUsage } from '../candidate';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  /** The answer's JSON Schema, for endpoints that constrain output to it. */
  schema: Record<string, unknown>;
}

export interface ChatAnswer {
  content: string;
  usage: TokenUsage;
}

/** The one thing a model engine needs from the outside world: a chat completion. */
export interface ChatPort {
  readonly engine: ModelEngineName;
  /** The model asked, for logs and usage. */
  readonly model: string;
  complete(messages: ChatMessage[], request: ChatRequest): Promise<ChatAnswer>;
}

/**
 * The model could not be reached or did not answer (a missing `claude` command, a timeout, an
 * endpoint still failing after its retries): the window goes to the local engine instead.
 */
export class ChatUnavailableError extends Error {
  constructor(
    message: string,
    /** Spent before it failed, if anything. */
    readonly usage?: TokenUsage,
  ) {
    super(message);
    this.name = 'ChatUnavailableError';
  }
}
