import { DomainError } from './domain-error';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** gzip's magic bytes: a compressed body sent without saying so. */
function looksGzipped(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * A JSON request body's bytes as text, or the reason they are not: bodies are plain UTF-8
 * (RFC 8259), never compressed. A `Content-Encoding` other than `identity` is a 415; bytes
 * that are not UTF-8 (gzip sent without the header among them) a 400 saying so, rather
 * than text with replacement characters whose length no longer matches Content-Length.
 */
export function decodeJsonBody(bytes: Uint8Array, contentEncoding: string | undefined): string {
  const encoding = contentEncoding?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new DomainError(
      'UNSUPPORTED_CONTENT_ENCODING',
      `Content-Encoding ${encoding} is not supported: send the JSON body uncompressed`,
      { contentEncoding: encoding, supported: ['identity'] },
    );
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new DomainError(
      'MALFORMED_BODY',
      looksGzipped(bytes)
        ? 'the request body is gzip-compressed: send the JSON body uncompressed, as UTF-8'
        : 'the request body is not valid UTF-8',
      { encoding: 'utf-8' },
    );
  }
}
