import type { MemoryItemAdminRepository } from '@memex/db';
import type { BrainView, MemoryItem } from '@memex/domain';
import { DECISIONS_SHOWN, MemoryError } from '@memex/mcp';
import { fake } from '../../../test/support/fakes';
import type { BrainService } from '@memex/feature-brain';
import type { ManualItemService } from '@memex/feature-items';
import type { SearchService } from '@memex/feature-search';
import { ProjectMemoryFactory } from './project-memory';

const P1 = '01JD00000000000000000PROJ1';
const BRAIN = { document: '# Project brain', brainHash: 'h1' } as BrainView;

function setUp(brain: () => Promise<BrainView> = async () => BRAIN) {
  const brains = fake<BrainService>({ brain }, 'brains');
  const search = fake<SearchService>({}, 'search');
  const items = fake<MemoryItemAdminRepository>(
    { list: async () => ({ items: [] as MemoryItem[], nextCursor: null }) } as Partial<MemoryItemAdminRepository>,
    'items',
  );
  const manual = fake<ManualItemService>({}, 'manual');
  return { memory: new ProjectMemoryFactory(brains, search, items, manual).forProject(P1), brains, items };
}

describe("the MCP server's project memory", () => {
  it("validates a tool's input with the HTTP route's own schema, for the key's project", async () => {
    const { memory, brains } = setUp();
    expect(await memory.brain(2000)).toBe(BRAIN);
    expect(brains.brain).toHaveBeenCalledWith(P1, 2000);
    await expect(memory.brain(12)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(brains.brain).toHaveBeenCalledTimes(1);
  });

  it('answers a lost database connection as DATABASE_UNAVAILABLE, which the model may retry', async () => {
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
    const { memory } = setUp(async () => Promise.reject(lost));
    const error = await memory.brain(undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MemoryError);
    expect(error).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
  });

  it('keeps any other failure internal, as it came', async () => {
    const bug = new TypeError('x is undefined');
    const { memory } = setUp(async () => Promise.reject(bug));
    await expect(memory.brain(undefined)).rejects.toBe(bug);
  });

  it("lists the project's active decisions, as many as the tool shows", async () => {
    const { memory, items } = setUp();
    await memory.decisions();
    expect(items.list).toHaveBeenCalledWith(P1, { type: 'Decision', status: 'active', limit: DECISIONS_SHOWN });
  });
});
