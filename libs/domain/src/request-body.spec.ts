import { gzipSync } from 'node:zlib';
import { DomainError } from './domain-error';
import { decodeJsonBody } from './request-body';

function refusal(bytes: Uint8Array, encoding?: string): DomainError {
  try {
    decodeJsonBody(bytes, encoding);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('decoded');
}

describe('decodeJsonBody', () => {
  it('decodes UTF-8, every plane included, and drops a byte order mark', () => {
    const text = '{"content":"héllo 世界 🚀"}';
    expect(decodeJsonBody(Buffer.from(text), undefined)).toBe(text);
    expect(decodeJsonBody(Buffer.from(`\uFEFF${text}`), 'identity')).toBe(text);
    expect(decodeJsonBody(Buffer.from(text), ' Identity ')).toBe(text);
  });

  it.each([
    ['a lone continuation byte', [0x7b, 0x80, 0x7d]],
    ['a Latin-1 é', [0x22, 0xe9, 0x22]],
    ['a truncated sequence', [0x22, 0xe4, 0xb8]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ])('refuses %s as MALFORMED_BODY', (_, bytes) => {
    const error = refusal(Uint8Array.from(bytes));
    expect(error.code).toBe('MALFORMED_BODY');
    expect(error.status).toBe(400);
    expect(error.message).toBe('the request body is not valid UTF-8');
  });

  it('says so when the bytes are gzip sent without Content-Encoding', () => {
    const error = refusal(gzipSync('{"sessionId":"s","events":[]}'));
    expect(error.code).toBe('MALFORMED_BODY');
    expect(error.message).toMatch(/gzip-compressed/);
  });

  it.each(['gzip', 'br', 'deflate', 'gzip, identity'])('refuses Content-Encoding %s with 415', (encoding) => {
    const error = refusal(Buffer.from('{}'), encoding);
    expect(error.code).toBe('UNSUPPORTED_CONTENT_ENCODING');
    expect(error.status).toBe(415);
    expect(error.details).toEqual({ contentEncoding: encoding, supported: ['identity'] });
  });
});
