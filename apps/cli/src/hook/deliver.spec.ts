import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpFailure, type MemexHttp } from '../memex-http';
import { deliverSpool } from './deliver';
import { Spool } from './spool';

/** A server that answers every request with the same status and error code. */
function answering(status: number, code: string): MemexHttp {
  return {
    call: async () => {
      throw new HttpFailure('status', `${status} ${code}`, status, code);
    },
  } as unknown as MemexHttp;
}

async function spoolWithOneBatch(): Promise<{ spool: Spool; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'memex-deliver-'));
  const spool = new Spool(dir, { url: 'http://127.0.0.1:1', apiKey: 'mx_test' } as never);
  await spool.add({ kind: 'events', sessionId: 's', events: [] });
  return { spool, dir };
}

describe('deliverSpool', () => {
  it('keeps a batch the server answers 503 (a dependency away), however often', async () => {
    const { spool, dir } = await spoolWithOneBatch();
    for (let i = 0; i < 15; i += 1) {
      const delivery = await deliverSpool(spool, answering(503, 'DATABASE_UNAVAILABLE'), () => 1000);
      expect(delivery).toMatchObject({ sent: 0, kept: 1, rejected: 0 });
    }
    expect(await spool.pending()).toHaveLength(1);
    expect(() => readdirSync(join(dir, 'rejected'))).toThrow();
  });

  it('sets aside a batch the server keeps failing on with a 500, so it cannot block the rest', async () => {
    const { spool, dir } = await spoolWithOneBatch();
    let rejected = 0;
    for (let i = 0; i < 15; i += 1) {
      rejected += (await deliverSpool(spool, answering(500, 'INTERNAL_ERROR'), () => 1000)).rejected;
    }
    expect(rejected).toBe(1);
    expect(await spool.pending()).toHaveLength(0);
    expect(readdirSync(join(dir, 'rejected'))).toHaveLength(1);
  });
});
