import type { EngineEvent } from '../candidate';
import { commandOf } from './event-signals';
import { propose, type Proposal } from './proposal';

/** What GitHub prints on a push or fetch through a repository's old name. */
const MOVED = /remote: This repository moved\. Please use the new location:[ \t]*\r?\n[ \t]*remote:[ \t]+(\S+)/;
/** The remote git pushed to, as it prints it: `To github.com:org/old.git`. */
const PUSHED_TO = /^To (\S+)$/m;

/**
 * A repository that moved while the checkout still uses its old remote: the host redirects for
 * now, and every teammate with an old clone needs the new location.
 */
export function movedRemote(events: readonly EngineEvent[]): Proposal[] {
  const index = events.findIndex(
    (e) => e.type === 'command' && e.content.includes('This repository moved.') && MOVED.test(e.content),
  );
  if (index < 0) return [];
  const event = events[index]!;
  const moved = MOVED.exec(event.content)!;
  const next = moved[1]!;
  const old = PUSHED_TO.exec(event.content)?.[1];
  const updated = events.slice(index + 1).some((e) => {
    const command = commandOf(e) ?? '';
    return /\bgit remote set-url\b/.test(command) && command.includes(next);
  });
  const facts = [
    `GitHub answered a push${old ? ` to \`${old}\`` : ''} with "This repository moved. Please use the new location: ${next}".`,
    updated
      ? `The session pointed the remote there (\`git remote set-url\`).`
      : `The checkout still uses the old remote; GitHub redirects for now. \`git remote set-url origin ${next}\` updates a clone.`,
  ].join(' ');
  return [
    propose(6, 'ArchitectureNote', {
      title: `The repository moved to \`${next}\``,
      facts,
      about: 'repository moved new location remote',
      confidence: 0.75,
      evidence: [{ eventId: event.eventId, quote: `This repository moved. Please use the new location:` }],
    }),
  ];
}
