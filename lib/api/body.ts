// Reads a request body with a hard size bound (1 MiB by default): a larger body gets 413
// without being buffered whole.
import { DomainError } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLargeError extends DomainError {
  constructor(readonly limit: number) {
    super('body_too_large', `request body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

export async function readBodyText(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  return Buffer.from(await readBodyBytes(req, limit)).toString('utf8');
}

/** The body's bytes, bounded as readBodyText's: for a caller that must judge the encoding itself. */
export async function readBodyBytes(req: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Parses JSON, returning undefined for invalid JSON (callers decide the error). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
