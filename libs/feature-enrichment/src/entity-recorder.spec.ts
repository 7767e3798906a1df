import type { EnrichmentRepository, EntityCursorRepository, EntityRepository, EntityWindow } from '@memex/db';
import type { EngineEvent } from '@memex/domain';
import { fake } from '../../../test/support/fakes';
import { EntityRecorder } from './entity-recorder';

const T = new Date('2026-11-26T10:00:00Z');
const EVENTS: EngineEvent[] = [
  {
    seq: 8,
    eventId: 'e8',
    type: 'tool_call',
    timestamp: T,
    content: 'Edit src/cart/discount.ts',
    metadata: { tool: 'Edit', input: { file_path: 'src/cart/discount.ts' } },
  },
];

type Behind = Awaited<ReturnType<EntityCursorRepository['behind']>>[number];

function setUp({ failing = false, behind = [] as Behind[] } = {}) {
  const events = fake<EnrichmentRepository>({ eventsUpTo: async () => EVENTS }, 'events');
  const entities = fake<EntityRepository>(
    {
      sessionEditedFiles: async () => ['src/cart/discount.ts'],
      recordWindow: async () => {
        if (failing) throw new Error('connection lost');
      },
      sessionItems: async () => [],
      linkItems: async () => undefined,
    },
    'entities',
  );
  const cursors = fake<EntityCursorRepository>(
    { markRead: async () => undefined, behind: async () => behind },
    'cursors',
  );
  return { recorder: new EntityRecorder(events, entities, cursors), events, entities, cursors };
}

describe('EntityRecorder', () => {
  it("records a window's entities from the events before it too, then moves the session's entity cursor", async () => {
    const { recorder, events, entities, cursors } = setUp();
    expect(await recorder.afterWindow('P1', 'S1', 8, T)).toBe(true);
    expect(events.eventsUpTo).toHaveBeenCalledWith('S1', 8, 200);
    const [, , window] = entities.recordWindow.mock.calls[0]! as [string, string, EntityWindow];
    expect(window.at).toBe(T);
    expect(window.mentions.length).toBeGreaterThan(0);
    expect(cursors.markRead).toHaveBeenCalledWith('P1', 'S1', 8);
  });

  it('leaves the cursor behind when the store cannot be written, and never fails the window', async () => {
    const { recorder, cursors } = setUp({ failing: true });
    expect(await recorder.afterWindow('P1', 'S1', 8, T)).toBe(false);
    expect(cursors.markRead).not.toHaveBeenCalled();
  });

  it('catches up the sessions left behind, reading further back, and counts those that made it', async () => {
    const behind = [
      { projectId: 'P1', sessionId: 'S1', cursor: 8, lastEventAt: T },
      { projectId: 'P1', sessionId: 'S2', cursor: 3, lastEventAt: T },
    ] as Behind[];
    const { recorder, events } = setUp({ behind });
    expect(await recorder.catchUp()).toBe(2);
    expect(events.eventsUpTo).toHaveBeenCalledWith('S2', 3, 2000);
  });
});
