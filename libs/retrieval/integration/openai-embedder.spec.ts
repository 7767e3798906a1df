import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@memex/config';
import { EMBED_MAX_CHARS, OpenAiEmbedder, REQUEST_MAX_CHARS } from '@memex/retrieval';

/** An OpenAI-compatible /v1/embeddings endpoint answering from a script, driven through the real client. */
class ScriptedEmbeddings {
  private server: Server | undefined;
  readonly requests: Array<{ model: string; input: string[]; dimensions?: number }> = [];
  url = '';
  constructor(private readonly script: Array<(input: string[]) => { status: number; body: unknown }>) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (d: Buffer) => (raw += d.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as { model: string; input: string[]; dimensions?: number };
        this.requests.push(body);
        const step = this.script[Math.min(this.requests.length - 1, this.script.length - 1)]!;
        const answer = req.url?.endsWith('/embeddings') ? step(body.input) : { status: 404, body: {} };
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()));
  }
}

const vectors = (dims: number) => (input: string[]) => ({
  status: 200,
  body: {
    object: 'list',
    model: 'm',
    // Out of order on purpose: the client must put them back by index.
    data: input
      .map((_, index) => ({
        object: 'embedding',
        index,
        embedding: Array.from({ length: dims }, (__, d) => index + d + 1),
      }))
      .reverse(),
    usage: { prompt_tokens: 1, total_tokens: 1 },
  },
});

function embedder(url: string, dims = 8, env: Record<string, string> = {}) {
  return new OpenAiEmbedder(
    loadConfig({
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_BASE_URL: url,
      EMBEDDING_MODEL: 'test-embed',
      EMBEDDING_DIMENSIONS: String(dims),
      LLM_MAX_RETRIES: '2',
      LLM_TIMEOUT_MS: '5000',
      ...env,
    }),
  );
}

describe('OpenAiEmbedder', () => {
  it('asks for the model and dimensions, and returns unit vectors in input order', async () => {
    const server = await new ScriptedEmbeddings([vectors(8)]).start();
    try {
      const [a, b] = await embedder(server.url).embed(['first', 'second']);
      expect(server.requests[0]).toMatchObject({ model: 'test-embed', input: ['first', 'second'], dimensions: 8 });
      const norm = (v: Float32Array) => Math.hypot(...v);
      expect(norm(a!)).toBeCloseTo(1, 5);
      expect(a![0]! / a![7]!).toBeCloseTo(1 / 8, 5);
      expect(b![0]! / b![7]!).toBeCloseTo(2 / 9, 5);
    } finally {
      await server.stop();
    }
  });

  it('retries a 500 through the client', async () => {
    const server = await new ScriptedEmbeddings([
      () => ({ status: 500, body: { error: { message: 'boom' } } }),
      vectors(8),
    ]).start();
    try {
      const out = await embedder(server.url).embed(['x']);
      expect(out).toHaveLength(1);
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.stop();
    }
  });

  it('a query fails at once on an error, and after EMBEDDING_QUERY_TIMEOUT_MS on silence', async () => {
    const failing = await new ScriptedEmbeddings([
      () => ({ status: 500, body: { error: { message: 'boom' } } }),
    ]).start();
    try {
      await expect(embedder(failing.url).embedQuery('x')).rejects.toThrow();
      expect(failing.requests).toHaveLength(1);
    } finally {
      await failing.stop();
    }
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
      // The item path would wait LLM_TIMEOUT_MS (5 s) three times over, retrying twice.
      const query = embedder(url, 8, { EMBEDDING_QUERY_TIMEOUT_MS: '200' }).embedQuery('x');
      await expect(query).rejects.toThrow();
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('cuts long item texts, and leaves dimensions out when told to', async () => {
    const server = await new ScriptedEmbeddings([vectors(8)]).start();
    try {
      await embedder(server.url, 8, { EMBEDDING_SEND_DIMENSIONS: 'false' }).embed(['y'.repeat(60_000), 'short']);
      expect(server.requests[0]!.input.map((t) => t.length)).toEqual([EMBED_MAX_CHARS, 5]);
      expect(server.requests[0]).not.toHaveProperty('dimensions');
    } finally {
      await server.stop();
    }
  });

  it('sends a large batch as several requests, in order', async () => {
    const server = await new ScriptedEmbeddings([vectors(8)]).start();
    try {
      const texts = Array.from({ length: 30 }, (_, i) => `${i} `.padEnd(EMBED_MAX_CHARS, 'z'));
      const out = await embedder(server.url).embed(texts);
      expect(out).toHaveLength(30);
      expect(server.requests.map((r) => r.input.length)).toEqual([25, 5]);
      expect(server.requests.flatMap((r) => r.input)).toEqual(texts);
      expect(server.requests.every((r) => r.input.join('').length <= REQUEST_MAX_CHARS)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it('refuses vectors of another size than configured', async () => {
    const server = await new ScriptedEmbeddings([vectors(9)]).start();
    try {
      await expect(embedder(server.url).embed(['x'])).rejects.toThrow(/9 dimensions, EMBEDDING_DIMENSIONS is 8/);
    } finally {
      await server.stop();
    }
  });
});
