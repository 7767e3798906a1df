import { EvidenceIndex } from '../verify';
import { candidateItemSchema } from '../candidate';
import { dialogueChoices } from './dialogue';
import { SessionFixture } from './session-fixture';
import { turnsOf } from './turns';

function choices(fixture: SessionFixture) {
  const events = fixture.events();
  const found = [...dialogueChoices(turnsOf([], events)).values()].map((p) => candidateItemSchema.parse(p.candidate));
  const index = new EvidenceIndex(events);
  for (const item of found) expect(index.verify(item).ok).toBe(true);
  return found;
}

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
    expect(choices(offer().prompt('1 and 2 both, please'))).toEqual([]);
    expect(choices(offer().prompt("let's do 2 retries then"))).toEqual([]);
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
    expect(choices(offer().prompt('4'))).toEqual([]);
    expect(choices(offer().prompt('Thanks, that explains it.'))).toEqual([]);
  });
});

describe('dialogue: a view the assistant confirms', () => {
  it('takes a correction of a cause as a BugFix, in the assistant’s restatement', () => {
    const [fix] = choices(
      new SessionFixture()
        .prompt('ah. the issue is the linter/formatter, not db:generate, I think.')
        .say(
          "You're right! The issue is that biome is formatting the committed Prisma files every time it runs, creating diffs.",
        ),
    );
    expect(fix).toMatchObject({
      type: 'BugFix',
      title: 'The issue is that biome is formatting the committed Prisma files every time it runs, creating diffs',
    });
    expect(fix!.facts).toContain('The issue is the linter/formatter, not db:generate, I think');
  });

  it('takes a design view the assistant agrees with as a Decision in the person’s words', () => {
    const [decision] = choices(
      new SessionFixture()
        .prompt("i think the execution agent and the oracle need to be the same agent?\nbut tell me if i'm wrong")
        .say("You're not wrong - I think you're **right**.\n\nLet me think through why:\n\n## If They're Separate"),
    );
    expect(decision).toMatchObject({
      type: 'Decision',
      title: 'The execution agent and the oracle need to be the same agent',
      // The view is the title; a why that only said it again would say nothing.
      rationale: null,
    });
  });

  it('reads a plain "no" to a question that carried the person’s view', () => {
    const [decision] = choices(
      new SessionFixture()
        .prompt("i will host it on render.com now\ndo we need something for that? i don't think we need a Dockerfile")
        .say('Nope, no Dockerfile needed. Render has a **Static Site** type that serves files directly.'),
    );
    expect(decision?.title).toBe('Render has a Static Site type that serves files directly');
    expect(decision?.facts).toContain('We do not need a Dockerfile');
  });

  it('is nothing when the assistant does not agree, or the person asked for work', () => {
    expect(
      choices(
        new SessionFixture()
          .prompt('i think the cache is the problem here')
          .say('Let me check the cache configuration first.'),
      ),
    ).toEqual([]);
    expect(
      choices(new SessionFixture().prompt('Please add a LICENSE file.').say("Yes, I'll add the MIT license now.")),
    ).toEqual([]);
  });

  it('is nothing when the assistant answers "no" to a view put positively: it disagrees', () => {
    expect(
      choices(
        new SessionFixture()
          .prompt('i think the issue is the connection pool size?')
          .say('No, the issue is that the migrations hold a lock on the sessions table during startup.'),
      ),
    ).toEqual([]);
  });

  it('is nothing for a request phrased with "should"', () => {
    expect(
      choices(
        new SessionFixture()
          .prompt('can you check whether the cache should be cleared on deploy?')
          .say('Yes, the deploy script clears the cache before the new workers start serving traffic.'),
      ),
    ).toEqual([]);
  });

  it('is nothing when a plain "yes" is all the assistant says of it', () => {
    expect(
      choices(
        new SessionFixture()
          .prompt('i think the worker should retry on 429?')
          .say('Yes. Let me check.\n\nReading the worker now.'),
      ),
    ).toEqual([]);
  });
});

describe('dialogue: what is not an option pick', () => {
  it('is nothing when the numbered list was steps taken, not a choice offered', () => {
    expect(
      choices(
        new SessionFixture()
          .prompt('why does the build fail on ci but not locally?')
          .say(
            'Here is what I changed:\n\n1. **Pinned node to 20** in the workflow file\n2. **Cleared the cache key** so the lockfile is read again',
          )
          .prompt('2 is weird, why the cache?'),
      ),
    ).toEqual([]);
  });

  it('is nothing for a prompt that begins "e.g."', () => {
    expect(
      choices(
        new SessionFixture()
          .prompt('how should we name the queues?')
          .say('Which do you prefer?\n\nA) **Name them by feature**\nE) **Name them by priority**')
          .prompt('e.g. enrichment and hygiene, by what they do'),
      ),
    ).toEqual([]);
  });

  it('takes the option by the number it was written with', () => {
    const [decision] = choices(
      new SessionFixture()
        .prompt('how should we store money amounts?')
        .say(
          'Two options:\n\n2. **Store integer cents** in a bigint column\n3. **Store decimals** in a numeric column\n\nWhich would you like?',
        )
        .prompt('3 please'),
    );
    expect(decision?.title).toBe('Store decimals in a numeric column');
  });
});
