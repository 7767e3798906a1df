import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transcriptToEvents } from '@memex/transcript';
import type { RawEventInput } from '@memex/domain';
import type { SourceEvent } from '@memex/entities';

/** A real Claude Code session from test/fixtures/claude-code, as the events API takes it (the hooks' form). */
export function fixtureRawEvents(name: string): RawEventInput[] {
  return transcriptToEvents(readFileSync(join(__dirname, '../fixtures/claude-code', name), 'utf8'));
}

/** The same session as stored events. For specs only. */
export function fixtureEvents(name: string): SourceEvent[] {
  return fixtureRawEvents(name).map((e) => ({
    eventId: e.eventId,
    type: e.type,
    occurredAt: Date.parse(e.timestamp),
    content: e.content,
    metadata: e.metadata ?? null,
  }));
}
