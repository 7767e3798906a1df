import { wordDiff } from './word-diff';

const marked = (mine: string, theirs: string) =>
  wordDiff(mine, theirs)
    .filter((p) => p.changed)
    .map((p) => p.text.trim());

describe('wordDiff', () => {
  it('marks nothing in equal texts and keeps the text whole', () => {
    const parts = wordDiff('retry three times', 'retry three times');
    expect(parts).toEqual([{ text: 'retry three times', changed: false }]);
  });

  it('marks the words only one side has', () => {
    expect(marked('retry three times with backoff', 'retry three times')).toEqual(['with backoff']);
    expect(marked('retry twice', 'retry three times')).toEqual(['twice']);
  });

  it('reads words without case or punctuation', () => {
    expect(marked('Rotate the secret.', 'rotate the secret')).toEqual([]);
  });

  it('gives back every character of its side', () => {
    const mine = 'The  sender drops\ndeliveries on 502';
    expect(
      wordDiff(mine, 'the sender retries on 502')
        .map((p) => p.text)
        .join(''),
    ).toBe(mine);
  });
});
