import { EvidenceIndex } from '../verify';
import { candidateItemSchema } from '../candidate';
import { dialogueChoices } from './dialogue';
import { SessionFixture, exchange } from './session-fixture';
import { turnsOf } from './turns';

function choices(fixture: SessionFixture) {
  const events = fixture.events();
  const found = [...dialogueChoices(turnsOf([], events)).values()].map((p) => candidateItemSchema.parse(p.candidate));
  const index = new EvidenceIndex(events);
  for (const item of found) expect(index.verify(item).ok).toBe(true);
  return found;
}

const expectNothing = (...sessions: SessionFixture[]) => {
  for (const session of sessions) expect(choices(session)).toEqual([]);
};

describe('dialogue: an option the person picks', () => {
  const offer = () =>
    new SessionFixture()
      .prompt('our git status has broken, why?')
      .bash('git status', 'fatal: unable to read e53647ba', true)
      .say(
        'The worktree index references a missing object.\n\nDo you want me to:\n\n' +
          '1. **Reset the index** with `git read-tree HEAD` — loses staged changes but fixes the issue\n' +
          '2. **Just clear the cache-tree** more surgically\n3. **Investigate more** first',
      );

  it('is a Decision in the option’s words, with what the person added', () => {
    const [decision] = choices(offer().prompt('1. this has happened twice now just fyi').say('Fixed — clean status.'));
    expect(decision).toMatchObject({
      type: 'Decision',
      title: 'Reset the index with `git read-tree HEAD` — loses staged changes but fixes the issue',
      rationale: 'this has happened twice now just fyi',
      importance: 4,
    });
  });

  it('reads a pick said in a sentence, and what the person asked to do with it', () => {
    for (const answer of ["ok let's do 1 and create a PR", 'go with option 1, this has happened twice now']) {
      const [decision] = choices(offer().prompt(answer).say('Done.'));
      expect(decision?.title).toBe(
        'Reset the index with `git read-tree HEAD` — loses staged changes but fixes the issue',
      );
    }
    // Picking two, or a number that counts something, picks no option.
    expectNothing(offer().prompt('1 and 2 both, please'), offer().prompt("let's do 2 retries then"));
  });

  it('reads lettered options laid out as lines', () => {
    const events = new SessionFixture()
      .prompt('What should the MVP be?')
      .say(
        'For the MVP, do you want to:\n\n**A) Start with scenario execution** - prove the agent can drive a happy path\n\n' +
          '**B) Start with bug detection** - find a known bug',
      )
      .prompt('A')
      .say('Perfect. MVP = prove the agent can execute a happy-path scenario autonomously.');
    expect(choices(events).map((c) => c.title)).toEqual([
      'Start with scenario execution - prove the agent can drive a happy path',
    ]);
  });

  it('is nothing when the answer names no option the assistant offered', () => {
    expectNothing(offer().prompt('4'), offer().prompt('Thanks, that explains it.'));
  });
});

describe('dialogue: a view the assistant confirms', () => {
  it.each([
    {
      does: 'takes a correction of a cause as a BugFix, in the assistant’s restatement',
      prompt: 'ah. the issue is the linter/formatter, not db:generate, I think.',
      answer:
        "You're right! The issue is that biome is formatting the committed Prisma files every time it runs, creating diffs.",
      choice: {
        type: 'BugFix',
        title: 'The issue is that biome is formatting the committed Prisma files every time it runs, creating diffs',
        facts: expect.stringContaining('The issue is the linter/formatter, not db:generate, I think'),
      },
    },
    {
      does: 'takes a design view the assistant agrees with as a Decision in the person’s words',
      prompt: "i think the execution agent and the oracle need to be the same agent?\nbut tell me if i'm wrong",
      answer: "You're not wrong - I think you're **right**.\n\nLet me think through why:\n\n## If They're Separate",
      choice: {
        type: 'Decision',
        title: 'The execution agent and the oracle need to be the same agent',
        // The view is the title; a why that only said it again would say nothing.
        rationale: null,
      },
    },
    {
      does: 'reads a plain "no" to a question that carried the person’s view',
      prompt: "i will host it on render.com now\ndo we need something for that? i don't think we need a Dockerfile",
      answer: 'Nope, no Dockerfile needed. Render has a **Static Site** type that serves files directly.',
      choice: {
        title: 'Render has a Static Site type that serves files directly',
        facts: expect.stringContaining('We do not need a Dockerfile'),
      },
    },
    {
      does: 'starts the restatement at its first word when a dash joined it to the agreement',
      prompt: 'i think the @scripts/manual-release.ts is still doing bun publish, instead of npm publish',
      answer:
        "You're right — since we're resolving `workspace:*` manually anyway, there's no reason to use `bun publish`.",
      choice: {
        title: "Since we're resolving `workspace:*` manually anyway, there's no reason to use `bun publish`",
      },
    },
  ])('$does', ({ prompt, answer, choice }) => {
    const [found] = choices(exchange(prompt, answer));
    expect(found).toMatchObject(choice);
  });

  it.each([
    {
      when: 'when the assistant does not agree, or the person asked for work',
      sessions: [
        exchange('i think the cache is the problem here', 'Let me check the cache configuration first.'),
        exchange('Please add a LICENSE file.', "Yes, I'll add the MIT license now."),
      ],
    },
    {
      when: 'when the assistant answers "no" to a view put positively: it disagrees',
      sessions: [
        exchange(
          'i think the issue is the connection pool size?',
          'No, the issue is that the migrations hold a lock on the sessions table during startup.',
        ),
      ],
    },
    {
      when: 'for a request phrased with "should"',
      sessions: [
        exchange(
          'can you check whether the cache should be cleared on deploy?',
          'Yes, the deploy script clears the cache before the new workers start serving traffic.',
        ),
      ],
    },
    {
      when: 'when a plain "yes" is all the assistant says of it',
      sessions: [exchange('i think the worker should retry on 429?', 'Yes. Let me check.\n\nReading the worker now.')],
    },
  ])('is nothing $when', ({ sessions }) => expectNothing(...sessions));
});

describe('dialogue: what is not an option pick', () => {
  it.each([
    {
      when: 'when the numbered list was steps taken, not a choice offered',
      session: exchange(
        'why does the build fail on ci but not locally?',
        'Here is what I changed:\n\n1. **Pinned node to 20** in the workflow file\n2. **Cleared the cache key** so the lockfile is read again',
      ).prompt('2 is weird, why the cache?'),
    },
    {
      when: 'for a prompt that begins "e.g."',
      session: exchange(
        'how should we name the queues?',
        'Which do you prefer?\n\nA) **Name them by feature**\nE) **Name them by priority**',
      ).prompt('e.g. enrichment and hygiene, by what they do'),
    },
  ])('is nothing $when', ({ session }) => expectNothing(session));

  it('takes the option by the number it was written with', () => {
    const [decision] = choices(
      exchange(
        'how should we store money amounts?',
        'Two options:\n\n2. **Store integer cents** in a bigint column\n3. **Store decimals** in a numeric column\n\nWhich would you like?',
      ).prompt('3 please'),
    );
    expect(decision?.title).toBe('Store decimals in a numeric column');
  });
});
