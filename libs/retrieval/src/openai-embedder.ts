import OpenAI from 'openai';
import type { Config } from '@memex/config';
import { normalize, type Embedder } from './ports';

/**
 * Characters of an item's text sent to the model: items may hold about 60,000 (facts, files,
 * rationale), past the 8,191-token input of OpenAI's embedding models, and one item over it
 * would fail its whole batch on every try. What an item is about comes first (title, facts).
 */
export const EMBED_MAX_CHARS = 8000;

/**
 * Characters of one request: OpenAI takes about 300,000 tokens a request in all, and 128 items
 * of 8,000 characters of code can come near it. Larger batches go as several requests.
 */
export const REQUEST_MAX_CHARS = 200_000;

/** Consecutive runs of `texts` of at most REQUEST_MAX_CHARS together (one text at least each). */
function requestChunks(texts: readonly string[], maxChars = REQUEST_MAX_CHARS): string[][] {
  const chunks: string[][] = [];
  let size = 0;
  for (const text of texts) {
    const last = chunks[chunks.length - 1];
    if (last && size + text.length <= maxChars) {
      last.push(text);
      size += text.length;
    } else {
      chunks.push([text]);
      size = text.length;
    }
  }
  return chunks;
}

/** Any OpenAI-compatible /embeddings endpoint (OpenAI, Ollama, vLLM, LM Studio) through the official client. */
export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;
  private readonly client: OpenAI;
  private readonly modelName: string;
  private readonly sendDimensions: boolean;
  private readonly queryTimeoutMs: number;

  constructor(config: Config) {
    this.dimensions = config.EMBEDDING_DIMENSIONS;
    this.model = `${config.EMBEDDING_MODEL}/${this.dimensions}`;
    this.client = new OpenAI({
      apiKey: config.OPENAI_API_KEY ?? 'not-needed',
      baseURL: config.EMBEDDING_BASE_URL ?? config.LLM_BASE_URL,
      timeout: config.LLM_TIMEOUT_MS,
      maxRetries: config.LLM_MAX_RETRIES,
    });
    this.modelName = config.EMBEDDING_MODEL;
    this.sendDimensions = config.EMBEDDING_SEND_DIMENSIONS;
    this.queryTimeoutMs = config.EMBEDDING_QUERY_TIMEOUT_MS;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (const chunk of requestChunks(texts.map((t) => t.slice(0, EMBED_MAX_CHARS)))) {
      vectors.push(...(await this.request(chunk)));
    }
    return vectors;
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const [vector] = await this.request([text.slice(0, EMBED_MAX_CHARS)], {
      timeout: this.queryTimeoutMs,
      maxRetries: 0,
    });
    return vector!;
  }

  private async request(input: string[], options?: OpenAI.RequestOptions): Promise<Float32Array[]> {
    if (input.length === 0) return [];
    const response = await this.client.embeddings.create(
      {
        model: this.modelName,
        input,
        ...(this.sendDimensions ? { dimensions: this.dimensions } : {}),
        encoding_format: 'float',
      },
      options,
    );
    const byIndex = [...response.data].sort((a, b) => a.index - b.index);
    if (byIndex.length !== input.length) {
      throw new Error(`embedding endpoint returned ${byIndex.length} vectors for ${input.length} texts`);
    }
    return byIndex.map((d) => {
      if (d.embedding.length !== this.dimensions) {
        throw new Error(
          `embedding model gave ${d.embedding.length} dimensions, EMBEDDING_DIMENSIONS is ${this.dimensions}`,
        );
      }
      return normalize(Float32Array.from(d.embedding));
    });
  }
}
