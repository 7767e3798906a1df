import { byScore } from './scoring';
import { DAY, NOW, item } from './brain-item.fixture';

describe('byScore', () => {
  const order = byScore(NOW);

  it('ranks the higher score first, a day of age being a difference', () => {
    const older = item({ title: 'older', updatedAt: new Date(NOW.getTime() - 3 * DAY), salience: 0.9 });
    const newer = item({ title: 'newer', updatedAt: NOW, salience: 0.1 });
    expect([older, newer].sort(order).map((i) => i.title)).toEqual(['newer', 'older']);
  });

  it('takes the milliseconds between one session’s writes for no difference: salience decides', () => {
    const first = item({ title: 'written first', updatedAt: new Date(NOW.getTime() - 40), salience: 0.8 });
    const last = item({ title: 'written last', updatedAt: NOW, salience: 0.4 });
    expect([last, first].sort(order).map((i) => i.title)).toEqual(['written first', 'written last']);
  });

  it('orders the same items the same way whatever their ids and input order', () => {
    const titles = ['b note', 'a note', 'c note'];
    const once = titles.map((title) => item({ title, salience: 0.5 }));
    const again = [...titles].reverse().map((title) => item({ title, salience: 0.5 }));
    expect(once.sort(order).map((i) => i.title)).toEqual(['a note', 'b note', 'c note']);
    expect(again.sort(order).map((i) => i.title)).toEqual(['a note', 'b note', 'c note']);
  });

  it('shows, of two equal sayings of one point, the one written last', () => {
    const first = item({ title: 'Use advisory locks (a)', updatedAt: new Date(NOW.getTime() - 40), salience: 0.9 });
    const last = item({ title: 'Use advisory locks (b)', updatedAt: NOW, salience: 0.1 });
    const latest = byScore(NOW, { latestOnTies: true });
    expect([first, last].sort(latest).map((i) => i.title)).toEqual([
      'Use advisory locks (b)',
      'Use advisory locks (a)',
    ]);
  });
});
