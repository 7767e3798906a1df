import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transcriptToEvents } from '@memex/transcript';
import type { RawEventInput } from '@memex/domain';
import type { SourceEvent } from '@memex/entities';

/** A real Claude Code session from test/fixtures/claude-code, as stored events. For specs only. */
export function fixtureEvents(name: string): SourceEvent[] {
  const text = readFileSync(join(__dirname, '../fixtures/claude-code', name), 'utf8');
  return transcriptToEvents(text).map((e) => ({
    eventId: e.eventId,
    type: e.type,
    occurredAt: Date.parse(e.timestamp),
    content: e.content,
    metadata: e.metadata ?? null,
  }));
}

/** The same session as the events API takes them, to store as the hooks would have sent them. */
export function fixtureRawEvents(name: string): RawEventInput[] {
  return fixtureEvents(name).map((e) => ({
    eventId: e.eventId,
    type: e.type as RawEventInput['type'],
    timestamp: new Date(e.occurredAt).toISOString(),
    content: e.content,
    ...(e.metadata ? { metadata: e.metadata } : {}),
  }));
}
