import { isJunkTitle } from './junk-title';

const MACHINE_OUTPUT = [
  "Fix: (eval):1: parse error near '('",
  'Fix: % Total % Received % Xferd Average Speed',
  'Fix: [Request interrupted by user for tool use]',
  'Fix: > scenario-testing-agent@0.1.0 build',
  "$(cat <<'EOF'",
  '158.5 npm error Exit handler never called!',
  '    at Object.<anonymous> (/app/src/index.js:12:5)',
  'const total = items.reduce((a, b) => a + b, 0);',
  'src/cart/discount.ts:42:7 - error TS2532',
  '2026-01-16T06:25:00Z INFO server started',
  'https://github.com/acme/app/pull/17',
  '❯ sudo sysctl -w kern.tty.ptmx_max=4096',
];

const TEAMMATE_NOTES = [
  'Use Redis',
  'The root cause was that legacy discount codes have no `rule`',
  '`click(x, y)` instead of `browser_click(element, ref)`',
  'Chrome does not support display: ruby-base, so the tokenizer uses native <ruby> elements',
  'Pyright now blocks CI (continue-on-error removed)',
];

describe('isJunkTitle', () => {
  it.each([
    ...MACHINE_OUTPUT.map((title) => ({ title, junk: true, verdict: 'rejects machine output as a title' })),
    ...TEAMMATE_NOTES.map((title) => ({ title, junk: false, verdict: 'keeps a note a teammate would write' })),
  ])('$verdict: $title', ({ title, junk }) => {
    expect(isJunkTitle(title)).toBe(junk);
  });
});
