/**
 * The fake Ollama's `/api/pull`: the NDJSON Ollama streams while it downloads a model.
 * `{"status":"pulling manifest"}`; then for each layer `{"status":"pulling <12 hex>","digest":
 * "sha256:<64 hex>","total":N,"completed":M}` with `completed` growing (left out while it is 0,
 * as Go's `omitempty` does); `verifying sha256 digest`, `writing manifest`, `success`. A name
 * the library does not have gets `pulling manifest`, then `{"error":"pull model manifest: file
 * does not exist"}`, in the stream (HTTP 200). `stream: false` gets the last line alone, an error
 * as HTTP 500. Waits are timers cut short when the client goes, so tests never sleep.
 */
import { createHash } from 'node:crypto';
import type { Exchange } from './fake-ollama-playback.js';
import type { FakeModel, WireObject } from './fake-ollama-wire.js';

/** A model the fake's "library" has, and how its download goes. */
export interface FakePullSpec {
  /** Layer sizes in bytes, in the order Ollama reports them. Default: 4 GB of weights, then 7 kB and 485 B. */
  layers?: number[];
  /** Reports of each layer's progress after its first (completed 0, or `alreadyHave`). Default 4. */
  steps?: number;
  /** Bytes of the first layer on disk before the pull (what an interrupted pull left). */
  alreadyHave?: number;
  /** Wait before each line after the first. */
  lineDelayMs?: number;
  /**
   * After this many lines (all of them included), wait for `until` before the rest; with no `until`,
   * keep the response open until the client goes away (which the request records as `clientAborted`).
   */
  hold?: { afterLines: number; until?: Promise<unknown> };
  /** Drop the connection after this many lines, as an Ollama that stopped mid-pull. */
  dropAfterLines?: number;
  /** Answer with this status and body instead of a pull, as a proxy or a server that is not Ollama does. */
  refuse?: { status: number; body: string };
  /** The model as `/api/tags` and `/api/show` list it once pulled; default `{ name }`. */
  model?: Omit<FakeModel, 'name'>;
}

const DEFAULT_LAYERS = [4_019_393_189, 7_020, 485];

/** What Ollama streams for a name the registry has no manifest for. */
export const NOT_IN_LIBRARY = 'pull model manifest: file does not exist';

function layerDigest(name: string, index: number): string {
  return createHash('sha256').update(`${name}#${index}`).digest('hex');
}

/** Every line of a pull, `success` (or the error) included. */
export function pullLines(name: string, spec: FakePullSpec | undefined): WireObject[] {
  const manifest = { status: 'pulling manifest' };
  if (!spec) return [manifest, { error: NOT_IN_LIBRARY }];
  const steps = spec.steps ?? 4;
  const layers = (spec.layers ?? DEFAULT_LAYERS).flatMap((total, index) => {
    const hex = layerDigest(name, index);
    const line = (completed: number): WireObject => ({
      status: `pulling ${hex.slice(0, 12)}`,
      digest: `sha256:${hex}`,
      total,
      ...(completed > 0 ? { completed } : {}),
    });
    const start = index === 0 ? Math.min(total, spec.alreadyHave ?? 0) : 0;
    const growth = Array.from({ length: steps }, (_, step) =>
      line(start + Math.round(((total - start) * (step + 1)) / steps)),
    );
    return [line(start), ...growth];
  });
  return [
    manifest,
    ...layers,
    { status: 'verifying sha256 digest' },
    { status: 'writing manifest' },
    { status: 'success' },
  ];
}

/** Plays a pull on `exchange`; true once `success` went out whole (the model is then the fake's). */
export async function playPull(
  exchange: Exchange,
  name: string,
  spec: FakePullSpec | undefined,
  stream: boolean,
): Promise<boolean> {
  if (spec?.refuse) {
    exchange.res.writeHead(spec.refuse.status, { 'Content-Type': 'text/plain' });
    exchange.res.end(spec.refuse.body);
    return false;
  }
  const lines = pullLines(name, spec);
  const last = lines[lines.length - 1] ?? {};
  if (!stream) {
    if ('error' in last) exchange.json(500, last);
    else exchange.json(200, last);
    return !('error' in last);
  }
  exchange.res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
  for (const [index, line] of lines.entries()) {
    if (index > 0 && spec?.lineDelayMs) await exchange.sleep(spec.lineDelayMs);
    if (exchange.gone) return false;
    await exchange.write(`${JSON.stringify(line)}\n`);
    if (index + 1 === spec?.dropAfterLines) {
      exchange.drop();
      return false;
    }
    if (spec?.hold && index + 1 === spec.hold.afterLines) {
      await (spec.hold.until ? Promise.race([spec.hold.until, exchange.untilGone()]) : exchange.untilGone());
    }
  }
  // A client that went away after the last line still had the whole pull.
  if (!exchange.gone) exchange.res.end();
  return !('error' in last);
}
