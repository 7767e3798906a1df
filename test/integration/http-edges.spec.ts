import { connect } from 'node:net';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { useTestApp } from '../support/use-test-app';

const ctx = useTestApp([IngestApiModule], { env: { HTTP_REQUEST_TIMEOUT_MS: '1000' } });

/** Sends raw bytes and returns everything the server answers before it closes the socket. */
function raw(payload: string, timeoutMs = 10_000): Promise<string> {
  const { port } = new URL(ctx.server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${timeoutMs} ms; got: ${answer}`));
    }, timeoutMs);
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', () => undefined);
    socket.write(payload);
  });
}

function jsonBody(answer: string): { error: { code: string } } {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string } };
}

describe('HTTP edges', () => {
  it('answers a body that stops arriving with 408 in the error shape, and frees the socket', async () => {
    const answer = await raw(
      `POST /api/v2/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    expect(answer.startsWith('HTTP/1.1 408')).toBe(true);
    expect(jsonBody(answer).error.code).toBe('REQUEST_TIMEOUT');
  });

  it('answers bytes that are not HTTP with 400 in the error shape', async () => {
    const answer = await raw('THIS IS NOT HTTP\r\n\r\n');
    expect(answer.startsWith('HTTP/1.1 400')).toBe(true);
    expect(jsonBody(answer).error.code).toBe('BAD_REQUEST');
  });

  it('answers CONNECT, which Node would drop without a word, with 405 in the error shape', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer.startsWith('HTTP/1.1 405')).toBe(true);
    expect(jsonBody(answer).error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
