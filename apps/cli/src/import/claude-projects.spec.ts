import { claudeProjectFolder, isSessionTranscript, progressBar } from './claude-projects';

describe('claudeProjectFolder', () => {
  it('names the folder as Claude Code does: every character but letters and digits becomes -', () => {
    expect(claudeProjectFolder('/home/me/shop.api', '/home/me/.claude')).toBe(
      '/home/me/.claude/projects/-home-me-shop-api',
    );
    expect(claudeProjectFolder('/Users/o_neil/my app', '/c')).toBe('/c/projects/-Users-o-neil-my-app');
  });
});

describe('isSessionTranscript', () => {
  it('takes session transcripts and leaves subagent transcripts and other files', () => {
    expect(isSessionTranscript('7c1e2a90-5b3d-4f7e-9a61-2d8c4b0e1f35.jsonl')).toBe(true);
    expect(isSessionTranscript('agent-1f2e.jsonl')).toBe(false);
    expect(isSessionTranscript('notes.json')).toBe(false);
    expect(isSessionTranscript('.jsonl')).toBe(false);
  });
});

describe('progressBar', () => {
  it('fills in proportion to what is done and fits the width', () => {
    expect(progressBar(0, 4, 'sessions', 40)).toBe(`[${'-'.repeat(25)}] 0/4 sessions`);
    expect(progressBar(1, 4, 'sessions', 40)).toBe(`[${'#'.repeat(6)}${'-'.repeat(19)}] 1/4 sessions`);
    expect(progressBar(4, 4, 'sessions', 40)).toBe(`[${'#'.repeat(25)}] 4/4 sessions`);
    expect(progressBar(3, 7, 'sessions', 200)).toBe(`[${'#'.repeat(17)}${'-'.repeat(23)}] 3/7 sessions`);
    // A narrow terminal still shows the counts whole.
    expect(progressBar(1, 2, 'sessions', 20)).toBe(`[${'#'.repeat(5)}${'-'.repeat(5)}] 1/2 sessions`);
  });
});
