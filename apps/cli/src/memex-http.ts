import { credentialOf, type Caller, type Connection } from './connection';
import { ExchangeError, exchange, type Answer } from './http-exchange';

/** Why a call to the Memex API failed, and whether trying again later can help. */
export class HttpFailure extends Error {
  constructor(
    readonly kind: 'unconfigured' | 'unreachable' | 'timeout' | 'status',
    message: string,
    readonly status?: number,
    readonly code?: string,
    /** The API error's details, when it gave any. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpFailure';
  }

  /** A down server, a slow one, or a key not set up yet: the request is worth keeping. */
  get retryable(): boolean {
    if (this.kind !== 'status') return true;
    const status = this.status ?? 0;
    return status >= 500 || [401, 403, 408, 429].includes(status);
  }
}

export interface CallOptions {
  body?: unknown;
  timeoutMs: number;
  accept?: string;
}

export interface ClientOptions {
  /** Whose credential to send (credentialOf); a project's own processes by default. */
  caller?: Caller;
  /** With the admin token: the project a project-scoped route acts on (X-Memex-Project). */
  projectId?: string;
}

/** A small client for the Memex HTTP API: Bearer key, JSON bodies, a deadline on every call. */
export class MemexHttp {
  constructor(
    readonly connection: Connection,
    private readonly options: ClientOptions = {},
  ) {}

  async call(method: string, path: string, options: CallOptions): Promise<string> {
    const answer = await this.exchange(method, path, options);
    if (!ok(answer)) throw failureOf(answer);
    return answer.text;
  }

  async json<T>(method: string, path: string, options: CallOptions): Promise<T> {
    return JSON.parse(await this.call(method, path, options)) as T;
  }

  /**
   * A GET that names the representation the caller holds (`etag`, as the server sent it):
   * `notModified` when the server says it is still current (304, no body), else the new
   * document and its ETag.
   */
  async revalidate(
    path: string,
    options: CallOptions & { etag?: string },
  ): Promise<{ notModified: true } | { notModified: false; text: string; etag?: string }> {
    const answer = await this.exchange('GET', path, options, options.etag);
    if (answer.status === 304) return { notModified: true };
    if (!ok(answer)) throw failureOf(answer);
    const etag = answer.headers.etag;
    return { notModified: false, text: answer.text, ...(etag ? { etag } : {}) };
  }

  private async exchange(method: string, path: string, options: CallOptions, ifNoneMatch?: string): Promise<Answer> {
    const { url } = this.connection;
    const token = credentialOf(this.connection, this.options.caller ?? 'project');
    if (!token) {
      throw new HttpFailure(
        'unconfigured',
        this.options.caller === 'person'
          ? 'no credentials: set MEMEX_API_KEY or MEMEX_ADMIN_TOKEN (or run `npm start` in the checkout)'
          : 'no Memex API key: set MEMEX_API_KEY (or run `npm start` in the checkout)',
      );
    }
    if (options.timeoutMs <= 0) throw new HttpFailure('timeout', 'no time left in the hook budget');
    try {
      return await exchange(url + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(this.options.projectId ? { 'x-memex-project': this.options.projectId } : {}),
          accept: options.accept ?? 'application/json',
          ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        timeoutMs: options.timeoutMs,
      });
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      if (error.kind === 'timeout') throw new HttpFailure('timeout', `Memex at ${url} did not answer in time`);
      if (error.kind === 'cut') throw new HttpFailure('timeout', `Memex at ${url} did not finish its answer in time`);
      throw new HttpFailure('unreachable', `Memex is not reachable at ${url} (${error.reason})`);
    }
  }
}

/** An answer other than 2xx, as the API's error (its code, message and details) when it is one. */
function failureOf({ status, text }: Answer): HttpFailure {
  let error: { code?: string; message?: string; details?: Record<string, unknown> } = {};
  try {
    error = (JSON.parse(text) as { error?: typeof error }).error ?? {};
  } catch {
    // Not our JSON (a proxy's page): the status says enough.
  }
  return new HttpFailure(
    'status',
    error.message ?? `HTTP ${status}`,
    status,
    error.code ?? `HTTP_${status}`,
    error.details,
  );
}

function ok({ status }: Answer): boolean {
  return status >= 200 && status < 300;
}
