import { keepLayers, type ShownLayer } from './brain-layers';

const DOC = [
  '# Project brain: web',
  '_3 live items · 2026-11-21 · budget 6000 tokens_',
  '## Project Brief',
  '- **Key decisions:** Use Postgres',
  '## Active Knowledge',
  '### Key Decisions',
  '- **Use Postgres** \\## not a heading',
  '## Reference Knowledge',
  '- old fact',
  '---',
  '_No archived items._',
].join('\n');

const keep = (...layers: ShownLayer[]) => keepLayers(DOC, new Set(layers));

describe('keepLayers', () => {
  it('keeps the whole document when every layer is shown', () => {
    expect(keep('layer0', 'layer1', 'layer2')).toBe(DOC);
  });

  it('drops a layer with its heading, keeping the title and the other layers', () => {
    const text = keep('layer1');
    expect(text).toContain('# Project brain: web');
    expect(text).toContain('### Key Decisions');
    expect(text).not.toContain('Project Brief');
    expect(text).not.toContain('old fact');
    expect(text).toContain('_No archived items._');
  });

  it('shows only the title when no layer is asked for', () => {
    expect(keep()).toBe([...DOC.split('\n').slice(0, 2), '---', '_No archived items._'].join('\n'));
  });
});
