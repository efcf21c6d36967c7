/**
 * Writes a scripted reply onto an HTTP response in each API's framing: NDJSON lines for
 * Ollama, `data:` lines ending in `[DONE]` for Chat Completions, `event:`/`data:` pairs for
 * the Responses API. Text chunks can be spaced out (a model generating), and each one's
 * moment of writing is reported, for timing a token from the wire to the screen.
 */
import type http from 'node:http';
import type { WireObject } from './ollama-wire.js';

export type Framing = 'ndjson' | 'sse-data' | 'sse-events';

export interface PlaybackOptions {
  framing: Framing;
  /** Pause after each object that carries text (0: write everything at once). */
  chunkDelayMs: number;
  /** The text an object carries, if any: timed with `onText` once written. */
  textOf: (object: WireObject) => string | undefined;
  onText: (text: string, at: number) => void;
}

const CONTENT_TYPES: Record<Framing, string> = {
  ndjson: 'application/x-ndjson',
  'sse-data': 'text/event-stream',
  'sse-events': 'text/event-stream',
};

function frame(object: WireObject, framing: Framing): string {
  switch (framing) {
    case 'ndjson':
      return `${JSON.stringify(object)}\n`;
    case 'sse-data':
      return `data: ${JSON.stringify(object)}\n\n`;
    case 'sse-events':
      return `event: ${String(object.type)}\ndata: ${JSON.stringify(object)}\n\n`;
    default:
      return framing satisfies never;
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams `objects`; resolves once the response has ended (or the client went away). */
export async function playStream(
  res: http.ServerResponse,
  objects: WireObject[],
  options: PlaybackOptions,
): Promise<void> {
  res.writeHead(200, { 'content-type': CONTENT_TYPES[options.framing], 'cache-control': 'no-cache' });
  for (const object of objects) {
    if (res.destroyed) return;
    res.write(frame(object, options.framing));
    const text = options.textOf(object);
    if (text === undefined) continue;
    options.onText(text, performance.now());
    if (options.chunkDelayMs > 0) await pause(options.chunkDelayMs);
  }
  if (options.framing === 'sse-data') res.write('data: [DONE]\n\n');
  res.end();
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
