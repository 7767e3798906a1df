import { fstatSync, read } from 'node:fs';

/**
 * Reads stdin to its end, or what came before the deadline, straight from file descriptor 0:
 * `process.stdin` builds a stream, and with it the socket machinery, which costs a hook about
 * 2 ms of the time Claude Code waits. A terminal (or no stdin at all) gives nothing. A descriptor
 * left non-blocking by whoever started us answers EAGAIN; it is then read as a stream.
 */
export function readStdin(timeoutMs: number): Promise<string> {
  try {
    if (fstatSync(0).isCharacterDevice()) return Promise.resolve('');
  } catch {
    return Promise.resolve('');
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    // A read still blocked at the deadline is abandoned: the hook exits with what it has.
    const timer = setTimeout(finish, Math.max(0, timeoutMs));
    const buffer = Buffer.allocUnsafe(64 * 1024);
    const next = (): void =>
      read(0, buffer, 0, buffer.length, null, (error, bytes) => {
        if (settled) return;
        if ((error as NodeJS.ErrnoException | null)?.code === 'EAGAIN') {
          process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
          process.stdin.once('end', finish);
          process.stdin.once('error', finish);
          return;
        }
        if (error || bytes === 0) return finish();
        chunks.push(Buffer.from(buffer.subarray(0, bytes)));
        next();
      });
    next();
  });
}
