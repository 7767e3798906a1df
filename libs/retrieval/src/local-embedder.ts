import { LOCAL_EMBEDDING_MODEL, localEmbedding } from '@memex/search';
import type { Embedder } from './ports';

/**
 * The default embedder: hashed word and character n-grams, no model download. It is lexical
 * (it knows spellings, not meanings), which still finds what full text misses: word parts,
 * plurals, camelCase identifiers, near spellings.
 */
export class LocalEmbedder implements Embedder {
  readonly model: string;

  constructor(readonly dimensions: number) {
    this.model = `${LOCAL_EMBEDDING_MODEL}/${dimensions}`;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((t) => localEmbedding(t, this.dimensions)));
  }

  embedQuery(text: string): Promise<Float32Array> {
    return Promise.resolve(localEmbedding(text, this.dimensions));
  }
}
