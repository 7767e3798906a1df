import { CliError } from './cli-error';
import type { Caller, Connection } from './connection';
import { HttpFailure, MemexHttp } from './memex-http';

/** A person waits on these; a hygiene pass's page or a redaction batch takes well under it. */
const TIMEOUT_MS = 30_000;

/** What a command line prints for a failed call: the API's code, message and details. */
export function failureMessage(error: HttpFailure): string {
  if (error.kind !== 'status') return error.message;
  const details = error.details && Object.keys(error.details).length ? ` ${JSON.stringify(error.details)}` : '';
  return `${error.code}: ${error.message}${details}`;
}

/**
 * The HTTP API as a person's commands call it: their credential (credentialOf), JSON in and
 * out, and any failure as a CliError carrying the API's own message.
 */
export class Api {
  readonly http: MemexHttp;

  constructor(
    readonly connection: Connection,
    projectId?: string,
    /** `project` for the routes only a project key may call (ingest's). */
    caller: Caller = 'person',
  ) {
    this.http = new MemexHttp(connection, { caller, ...(projectId ? { projectId } : {}) });
  }

  get<T>(path: string, accept?: string): Promise<T> {
    return this.json<T>('GET', path, undefined, accept);
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.json<T>('POST', path, body);
  }

  /** The body as text, for representations that are not JSON (the brain's markdown). */
  async text(path: string, accept: string): Promise<string> {
    try {
      return await this.http.call('GET', path, { timeoutMs: TIMEOUT_MS, accept });
    } catch (error) {
      if (error instanceof HttpFailure) throw new CliError(failureMessage(error));
      throw error;
    }
  }

  private async json<T>(method: string, path: string, body?: unknown, accept?: string): Promise<T> {
    try {
      return await this.http.json<T>(method, path, {
        timeoutMs: TIMEOUT_MS,
        ...(body !== undefined ? { body } : {}),
        ...(accept ? { accept } : {}),
      });
    } catch (error) {
      if (error instanceof HttpFailure) throw new CliError(failureMessage(error));
      throw error;
    }
  }
}
