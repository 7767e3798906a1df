import { saysWhatItBecame } from './new-state';

describe('saysWhatItBecame', () => {
  it.each([
    ['`manual-release-bun.ts` is now `manual-release.ts`: no workspace resolution, uses `bun publish`', true],
    ['The release script now uses `bun publish` instead of `npm publish`', true],
    ['Typecheck no longer depends on `dist/` existing', true],
    ['`/whats-next` renamed to `/vamp`', true],
    ['The module caps `kern.tty.ptmx_max` at 999, back to the kernel ceiling', true],
    // A report that the work is done, not what the point became.
    ['The login redirect loop is now fixed in 1.4.1', false],
    ['The e2e suite is now all green', false],
    ['The worker no longer crashes on an empty window', false],
    ['CI now runs green again', false],
    // No word of a change at all.
    ['The release script publishes with `npm publish`', false],
  ])('reads %j as %s', (title, became) => {
    expect(saysWhatItBecame(title)).toBe(became);
  });
});
