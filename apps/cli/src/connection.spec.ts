import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConnection } from './connection';

function keyFile(dir: string, apiKey: string, url: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'local-project.json'), JSON.stringify({ apiKey, url }));
}

describe('resolveConnection', () => {
  const root = () => mkdtempSync(join(tmpdir(), 'memex-conn-'));

  it('finds the key embedded mode keeps in ~/.memex before a checkout’s .memex', () => {
    const home = root();
    const checkout = root();
    keyFile(join(home, '.memex'), 'mx_home', 'http://127.0.0.1:9000');
    keyFile(join(checkout, '.memex'), 'mx_checkout', 'http://127.0.0.1:9001');
    expect(resolveConnection({ HOME: home }, checkout)).toEqual({
      url: 'http://127.0.0.1:9000',
      apiKey: 'mx_home',
      source: join(home, '.memex', 'local-project.json'),
    });
  });

  it('follows MEMEX_HOME, and falls back to the checkout’s .memex (server mode) when the home has no key', () => {
    const home = root();
    const checkout = root();
    keyFile(join(home, 'elsewhere'), 'mx_moved', 'http://127.0.0.1:9002');
    expect(resolveConnection({ HOME: home, MEMEX_HOME: join(home, 'elsewhere') }, checkout).apiKey).toBe('mx_moved');
    keyFile(join(checkout, '.memex'), 'mx_checkout', 'http://127.0.0.1:9001');
    expect(resolveConnection({ HOME: home }, checkout).apiKey).toBe('mx_checkout');
  });

  it('takes MEMEX_LOCAL_STATE_DIR alone when set, and the environment over any file', () => {
    const home = root();
    keyFile(join(home, '.memex'), 'mx_home', 'http://127.0.0.1:9000');
    const state = join(home, 'state');
    expect(resolveConnection({ HOME: home, MEMEX_LOCAL_STATE_DIR: state }, home)).toEqual({
      url: 'http://127.0.0.1:8080',
      source: 'none',
    });
    expect(
      resolveConnection({ HOME: home, MEMEX_API_KEY: 'mx_env', MEMEX_URL: 'http://memex.internal/' }, home),
    ).toEqual({ url: 'http://memex.internal', apiKey: 'mx_env', source: 'MEMEX_API_KEY' });
  });

  it('takes the key `memex init` wrote for the repository the command runs in, from any folder below it', () => {
    const home = root();
    keyFile(join(home, '.memex'), 'mx_home', 'http://127.0.0.1:9000');
    const repo = join(root(), 'shop-api');
    mkdirSync(join(repo, '.claude'), { recursive: true });
    mkdirSync(join(repo, 'src', 'cart'), { recursive: true });
    writeFileSync(
      join(repo, '.claude', 'settings.local.json'),
      JSON.stringify({ env: { MEMEX_API_KEY: 'mx_repo', MEMEX_URL: 'http://127.0.0.1:9100' } }),
    );
    expect(resolveConnection({ HOME: home }, home, join(repo, 'src', 'cart'))).toEqual({
      url: 'http://127.0.0.1:9100',
      apiKey: 'mx_repo',
      source: join(repo, '.claude', 'settings.local.json'),
    });
    expect(resolveConnection({ HOME: home, MEMEX_API_KEY: 'mx_env' }, home, repo).apiKey).toBe('mx_env');
    expect(resolveConnection({ HOME: home }, home, home).apiKey).toBe('mx_home');
  });
});
