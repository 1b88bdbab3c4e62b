import type { IncomingMessage } from 'node:http';

/** A request's whole body, or 'too-large' once it passes `limit` bytes (the rest is read and dropped). */
export function readRequestBody(request: IncomingMessage, limit = Number.POSITIVE_INFINITY): Promise<Buffer | 'too-large'> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.on('end', () => done(size > limit ? 'too-large' : Buffer.concat(chunks)));
    request.on('error', fail);
  });
}
