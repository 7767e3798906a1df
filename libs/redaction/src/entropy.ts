/** Shannon entropy of the text's characters, in bits per character. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Lower case, upper case, digits, anything else: how many of them the text uses. */
export function characterClasses(text: string): number {
  return (
    Number(/[a-z]/.test(text)) +
    Number(/[A-Z]/.test(text)) +
    Number(/[0-9]/.test(text)) +
    Number(/[^A-Za-z0-9]/.test(text))
  );
}
