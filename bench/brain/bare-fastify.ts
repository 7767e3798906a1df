import Fastify from 'fastify';

/**
 * The baseline for `bench:brain`'s 304s: a bare Fastify route answering a revalidation of the
 * same path with the same headers, with nothing else in the process. Memex's 304 can only be
 * as cheap as this; the ratio says how much of it Memex spends on its own work.
 * Run as its own process: `node bare-fastify.js <port>`; prints "ready" once listening.
 */
const TAG = '"bench-brain-tag"';

async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/api/v2/brain', async (request, reply) => {
    if (request.headers['if-none-match'] === TAG)
      return reply.header('etag', TAG).header('vary', 'accept').code(304).send();
    return reply.header('etag', TAG).type('text/markdown').send('# brain\n');
  });
  await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
  process.stdout.write('ready\n');
}

void main();
