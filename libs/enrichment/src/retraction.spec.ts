import { restsOnRejected } from './retraction';

describe('restsOnRejected', () => {
  const rejected = new Set(['closing']);

  it('is true when the headline quotes the rejected message, whatever else supports it', () => {
    expect(restsOnRejected([{ eventId: 'closing' }, { eventId: 'prompt' }], rejected)).toBe(true);
  });

  it('is false when the rejected message only supports the item', () => {
    expect(restsOnRejected([{ eventId: 'prompt' }, { eventId: 'closing' }], rejected)).toBe(false);
  });

  it('is false for an item without evidence', () => {
    expect(restsOnRejected([], rejected)).toBe(false);
  });
});
