// An HTTP answer read as a test reads it, for helpers that both vitest and Playwright load.

/** An answer: `body` is its JSON, or its text when that is not JSON (null when empty); `T` is how the test reads it. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** A response as { status, body, headers }: JSON parsed when it is JSON, else the text. */
export async function answer<T = unknown>(r: Response): Promise<Answer<T>> {
  const text = r.status === 204 ? '' : await r.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: r.status, body: body as T, headers: r.headers };
}
