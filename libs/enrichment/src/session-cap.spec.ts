import { planSessionCap, salienceOf } from './session-cap';

describe('planSessionCap', () => {
  const held = [
    { id: 'a', salience: 0.9 },
    { id: 'b', salience: 0.4 },
  ];

  it('admits every candidate while the session has room', () => {
    expect(planSessionCap(held, [0.1, 0.2], 4)).toEqual({ admitted: [0, 1], displaced: [] });
  });

  it('lets a more salient candidate displace the weakest item held, and drops a weaker one', () => {
    expect(planSessionCap(held, [0.5, 0.3], 2)).toEqual({ admitted: [0], displaced: ['b'] });
  });

  it('keeps what is stored on a tie', () => {
    expect(planSessionCap(held, [0.4], 2)).toEqual({ admitted: [], displaced: [] });
  });

  it('ranks new candidates among themselves in the order given on a tie', () => {
    expect(planSessionCap([], [0.5, 0.5, 0.5], 2)).toEqual({ admitted: [0, 1], displaced: [] });
  });

  it('keeps everything with unlimited room', () => {
    expect(planSessionCap(held, [0.1], Infinity)).toEqual({ admitted: [0], displaced: [] });
  });

  it('admits nothing and displaces everything held with no room', () => {
    expect(planSessionCap(held, [0.99], 0)).toEqual({ admitted: [], displaced: ['a', 'b'] });
  });
});

describe('salienceOf', () => {
  it('takes the engine’s salience, or derives one from importance and confidence', () => {
    expect(salienceOf({ salience: 0.7, importance: 1, confidence: 0.1 })).toBe(0.7);
    expect(salienceOf({ importance: 4, confidence: 0.8 })).toBe(0.64);
  });
});
