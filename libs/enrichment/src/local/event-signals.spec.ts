import type { EngineEvent } from '../candidate';
import { errorLine, filesOfAFix, passingRun } from './event-signals';

function command(content: string, exitCode: number): EngineEvent {
  return {
    eventId: 'e1',
    seq: 1,
    type: 'command',
    content,
    timestamp: new Date('2026-11-27T10:00:00Z'),
    metadata: { tool: 'Bash', command: 'npm test', exitCode },
  };
}

describe('what a command printed', () => {
  it('names the line that says what failed, and a passing run by its command', () => {
    expect(errorLine(command('> jest\n  ✕ adds totals (3 ms)\nTests: 1 failed', 1))).toBe('✕ adds totals (3 ms)');
    expect(passingRun(command('Tests: 12 passed', 0))).toBe('npm test');
  });

  it('takes a run for a check by what it ran, not by what it printed', () => {
    const run = (line: string, output: string): EngineEvent => ({
      ...command(output, 0),
      metadata: { tool: 'Bash', command: line, exitCode: 0 },
    });
    expect(passingRun(run('npm run build 2>&1 | tail -5', 'built in 2.1s'))).toBe('npm run build');
    expect(passingRun(run('git add src/index.test.ts', ''))).toBeUndefined();
    expect(passingRun(run('go run ./cmd/server', 'listening: success'))).toBeUndefined();
    expect(passingRun(command('Tests: 1 failed', 1))).toBeUndefined();
    expect(passingRun(run('npm test', 'Command running in background with ID: bash_1'))).toBeUndefined();
  });

  it('reads output of blank lines in one pass', () => {
    // A failed-test pattern whose line start ran over every blank line after it, from every line,
    // took 5 s on output at the ingest cap that held no failed test; ten times that would outlast
    // the test's timeout.
    const blank = '\n'.repeat(1_000_000);
    expect(errorLine(command(`${blank}the run stopped early`, 1))).toBe('the run stopped early');
    expect(passingRun(command(`${blank}ok`, 0))).toBe('npm test');
  });
});

describe('where a fix went, from the files its turn changed', () => {
  it('is the code among them: docs and changelogs hold no fix', () => {
    expect(filesOfAFix(['CHANGELOG.md', 'docs/export.md', 'LICENSE', 'src/export/job.ts'])).toEqual([
      'src/export/job.ts',
    ]);
    // Code that only names them is code.
    expect(filesOfAFix(['src/license-check.ts', 'src/changelog.ts', 'ui/ChangelogView.tsx'])).toHaveLength(3);
  });

  it('is no file when the turn changed more code than a fix names', () => {
    expect(filesOfAFix(['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'])).toHaveLength(4);
    expect(filesOfAFix(['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts', 'src/e.ts'])).toEqual([]);
  });
});
