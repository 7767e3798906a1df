import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from 'node:http';

/**
 * One HTTP request and its whole answer, on node:http rather than fetch: fetch loads undici
 * on first use, which costs a hook (a new process, every time) tens of milliseconds more than
 * node:http. https loads only for an https URL.
 */

export interface Exchange {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Why no answer came: no connection, no answer in time, or an answer cut off before its end. */
export class ExchangeError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'cut',
    /** The system's code (ECONNREFUSED…) or its message. */
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'ExchangeError';
  }
}

export async function exchange(url: string, options: Exchange): Promise<Answer> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new ExchangeError('unreachable', 'not a URL');
  }
  const request = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
  const requestOptions: RequestOptions = {
    method: options.method,
    headers: { ...options.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
  };
  return new Promise<Answer>((resolve, reject) => {
    let answered = false;
    let timedOut = false;
    let sent: ReturnType<typeof httpRequest>;
    try {
      sent = request(target, requestOptions, onAnswer);
    } catch (error) {
      // A header node:http will not send (a key with a line break in it): no request went out.
      const { code, message } = error as Error & { code?: string };
      return reject(new ExchangeError('unreachable', code ?? message));
    }
    function onAnswer(response: IncomingMessage): void {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
      // The connection closed before the answer's end: its 'close' says so (complete is false).
      response.on('error', () => undefined);
      response.on('close', () => {
        if (!response.complete) reject(new ExchangeError('cut', 'the answer was cut off'));
      });
    }
    const timer = setTimeout(
      () => {
        timedOut = true;
        sent.destroy();
      },
      Math.max(1, Math.floor(options.timeoutMs)),
    );
    sent.on('error', (error: Error & { code?: string }) => {
      clearTimeout(timer);
      if (timedOut) reject(new ExchangeError(answered ? 'cut' : 'timeout', 'no time left'));
      else reject(new ExchangeError(answered ? 'cut' : 'unreachable', error.code ?? error.message));
    });
    sent.on('close', () => {
      clearTimeout(timer);
      // A request destroyed after its answer began ends here without 'error' on some versions.
      if (timedOut) reject(new ExchangeError(answered ? 'cut' : 'timeout', 'no time left'));
    });
    sent.end(body);
  });
}
