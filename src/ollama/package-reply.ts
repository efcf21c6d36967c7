/**
 * The reply our `fetch` hands the `ollama` package, in place of a `Response`. The package reads
 * only its status, its content type, its text or JSON, and whether it has a body; the global
 * `Response` is undici's, which Node loads whole the first time anything touches it, and nothing
 * else on the way to Ollama needs undici (the request goes over `node:http`).
 */
export interface PackageReply {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  /** Present for a streamed reply, so the package opens its reader; `replyObjects` reads the stream instead. */
  readonly body: object | null;
  json(): Promise<unknown>;
  text(): Promise<string>;
}

/** A reply with its whole body read; `body` stands for a streamed body the package never reads. */
export function packageReply(
  status: number,
  text: string,
  contentType: string,
  body: object | null = null,
): PackageReply {
  return {
    ok: status >= 200 && status <= 299,
    status,
    statusText: '',
    headers: { get: (name) => (name.toLowerCase() === 'content-type' ? contentType : null) },
    body,
    json: () => Promise.resolve(JSON.parse(text) as unknown),
    text: () => Promise.resolve(text),
  };
}

/**
 * Any error body rewritten as `{"error": text}`: on other bodies (a proxy's HTML, plain text) the
 * package prints to the console, which would corrupt the terminal UI.
 */
export function errorReply(status: number, text: string, statusMessage: string | undefined): PackageReply {
  const message = errorField(text) ?? (text.trim() || `${status} ${statusMessage ?? ''}`.trim());
  return packageReply(status, JSON.stringify({ error: message }), 'application/json; charset=utf-8');
}

function errorField(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const field = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'error') : undefined;
    return typeof field === 'string' ? field : undefined;
  } catch {
    return undefined;
  }
}
