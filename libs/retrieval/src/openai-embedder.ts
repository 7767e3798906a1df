import OpenAI from 'openai';
import type { Config } from '@memex/config';
import { normalize, type Embedder } from './ports';

/** Any OpenAI-compatible /embeddings endpoint (OpenAI, Ollama, vLLM, LM Studio) through the official client. */
export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;
  private readonly client: OpenAI;
  private readonly modelName: string;

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
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const response = await this.client.embeddings.create({
      model: this.modelName,
      input: texts,
      dimensions: this.dimensions,
      encoding_format: 'float',
    });
    const byIndex = [...response.data].sort((a, b) => a.index - b.index);
    if (byIndex.length !== texts.length) {
      throw new Error(`embedding endpoint returned ${byIndex.length} vectors for ${texts.length} texts`);
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
