import type { RawEventInput } from '@memex/domain';
import { rawEvent } from './events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean } };
}

/** One scripted answer. `content` may be built from the request (e.g. to quote its events). */
export interface Step {
  status?: number;
  content?: string | ((request: ChatRequestBody) => string);
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (until the server stops): a model that hangs. */
  hang?: boolean;
  usage?: { prompt_tokens: number; completion_tokens: number };
  headers?: Record<string, string>;
}

/**
 * An OpenAI-compatible `/v1/chat/completions` endpoint that answers from a script, so the
 * real `openai` client (its retries, timeouts and parsing) is what the tests exercise.
 */
export class ScriptedLlm {
  readonly requests: ChatRequestBody[] = [];
  private readonly script: Step[] = [];
  private server: Server | undefined;
  private readonly hanging = new Set<ServerResponse>();
  /** Used when the script has run out. */
  fallback: Step = { status: 500, content: 'script exhausted' };
  /**
   * `response_format` types this endpoint refuses with a 400, as servers without structured
   * outputs do; such a request takes no step of the script.
   */
  refuses = new Set<string>();
  url = '';

  enqueue(...steps: Step[]): this {
    this.script.push(...steps);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw) as ChatRequestBody;
    this.requests.push(body);
    const format = body.response_format?.type;
    if (format && this.refuses.has(format)) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: { message: `response_format ${format} is not supported`, type: 'invalid_request_error' },
        }),
      );
      return;
    }
    const step = this.script.shift() ?? this.fallback;
    if (step.hang) {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
    if (res.destroyed) return;
    const status = step.status ?? 200;
    const content = typeof step.content === 'function' ? step.content(body) : (step.content ?? '{"items":[]}');
    const usage = step.usage ?? { prompt_tokens: 100, completion_tokens: 50 };
    const payload =
      status === 200
        ? {
            id: `chatcmpl-${this.requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
          }
        : { error: { message: content, type: 'scripted_error' } };
    res.writeHead(status, { 'content-type': 'application/json', ...step.headers }).end(JSON.stringify(payload));
  }
}

/** The JSON a model would answer with: `{"items": [...]}`. */
export function modelAnswer(items: unknown[]): string {
  return JSON.stringify({ items });
}

/** A two-event session deciding on an email outbox and leaving a backfill to do (crash tests). */
export function outboxEvents(): RawEventInput[] {
  return [
    rawEvent('prompt', 'We decided to send all emails through the outbox table, never directly from handlers.'),
    rawEvent('response', 'Agreed. TODO: backfill the outbox for the emails queued before the switch.'),
  ];
}

/** The model's answer to `outboxEvents()`: the decision and the todo, each quoting its event. */
export function outboxAnswer(events: readonly RawEventInput[]): string {
  return modelAnswer([
    {
      type: 'Decision',
      title: 'Send all emails through the outbox table',
      facts: 'Handlers write to the outbox table; a relay sends the emails.',
      schemaKey: 'root/decisions',
      dedupHint: 'decision:email:outbox-table',
      importance: 4,
      confidence: 0.9,
      evidence: [{ eventId: events[0]!.eventId, quote: 'send all emails through the outbox table' }],
    },
    {
      type: 'Todo',
      title: 'Backfill the outbox for emails queued before the switch',
      facts: 'Emails queued before the switch are not in the outbox yet.',
      schemaKey: 'root/todos',
      dedupHint: 'todo:email:outbox-backfill',
      importance: 3,
      confidence: 0.8,
      evidence: [{ eventId: events[1]!.eventId, quote: 'backfill the outbox for the emails queued' }],
    },
  ]);
}
