import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as it passed: what the client asked with, and how the server answered. */
export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
  /** The answer's headers, as the server sent them. */
  answer: IncomingHttpHeaders;
}

/**
 * An HTTP forwarder in front of a real server that records each exchange, so a test can see
 * what a client process (a hook) sent and what it was answered, e.g. If-None-Match and 304.
 */
export class HttpRecorder {
  readonly exchanges: Recorded[] = [];
  private server: Server | undefined;
  private holds: { method: string; path: string; ms: number }[] = [];
  url = '';

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    const target = new URL(this.target);
    this.server = createServer((incoming, outgoing) => {
      const held = this.holds.find((h) => h.method === incoming.method && incoming.url?.startsWith(h.path));
      if (held) setTimeout(() => this.forward(target, incoming, outgoing), held.ms);
      else this.forward(target, incoming, outgoing);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Requests of `method` whose path starts with `path` are passed on only after `ms`: a slow server. */
  hold(method: string, path: string, ms: number): this {
    this.holds.push({ method, path, ms });
    return this;
  }

  private forward(target: URL, incoming: IncomingMessage, outgoing: ServerResponse): void {
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        this.exchanges.push({
          method: incoming.method ?? '',
          path: incoming.url ?? '',
          headers: incoming.headers,
          status: answer.statusCode ?? 0,
          answer: answer.headers,
        });
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  }

  /** The brain requests recorded so far. */
  brainRequests(): Recorded[] {
    return this.exchanges.filter((e) => e.method === 'GET' && e.path.startsWith('/api/v2/brain?'));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
