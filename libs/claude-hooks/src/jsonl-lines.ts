/**
 * The complete lines of a chunk read from a JSONL file that is still being written: a last
 * line without its newline is left for the next read, so `consumed` bytes are safe to skip.
 */
export function completeLines(chunk: Buffer): { lines: string[]; consumed: number } {
  const end = chunk.lastIndexOf(0x0a);
  if (end < 0) return { lines: [], consumed: 0 };
  const lines = chunk
    .subarray(0, end)
    .toString('utf8')
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '');
  return { lines, consumed: end + 1 };
}
