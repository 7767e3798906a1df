import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HomeLockedError, lockHome } from './home-lock';

describe('lockHome', () => {
  const home = () => mkdtempSync(join(tmpdir(), 'memex-home-'));

  it('takes a home with this pid and gives it back', () => {
    const dir = home();
    const release = lockHome(dir);
    expect(readFileSync(join(dir, 'memex.pid'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'memex.pid'))).toBe(false);
  });

  it('refuses a home a live process holds, naming it', () => {
    const dir = home();
    // The parent (jest) is alive for as long as this test runs.
    writeFileSync(join(dir, 'memex.pid'), String(process.ppid));
    expect(() => lockHome(dir)).toThrow(HomeLockedError);
    expect(() => lockHome(dir)).toThrow(`process ${process.ppid}`);
    expect(readFileSync(join(dir, 'memex.pid'), 'utf8')).toBe(String(process.ppid));
  });

  it('takes over the file of a process that died', () => {
    const dir = home();
    // Far above any pid_max: no such process.
    writeFileSync(join(dir, 'memex.pid'), '999999999');
    const release = lockHome(dir);
    expect(readFileSync(join(dir, 'memex.pid'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
