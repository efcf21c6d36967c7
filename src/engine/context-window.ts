/**
 * The context the model really has, which every budget is a share of (the history's room, the
 * tools' share, compaction, the status line): `ollama.num_ctx` when the user set it, since it is
 * then sent with every request; else what Ollama says: the context of the loaded model
 * (`/api/ps`), capped by the model's own maximum (`/api/show`). Policy: before the model is
 * loaded, Ollama's conservative default is assumed; a look-up that learns nothing keeps what is known.
 */
import type { ModelContext } from '../vocabulary/model-context.js';

/**
 * Ollama's default context since v0.6.7, and since v0.16 on machines with less than 24 GiB of
 * VRAM: the context a model most likely gets when no request names one. Too small errs safe.
 */
export const ASSUMED_CONTEXT = 4096;

/** The context tokens a budget is taken from, read at each request. */
export interface ContextSize {
  readonly tokens: number;
}

/** Where the size came from: the config, Ollama's loaded model, or the assumption. */
export type ContextSource = 'configured' | 'loaded' | 'assumed';

/** Asks Ollama about a model's context; never throws (what it could not learn is left out). */
export type ContextProbe = (model: string) => Promise<ModelContext>;

interface Learned {
  model: string | undefined;
  tokens: number;
  source: Exclude<ContextSource, 'configured'>;
}

export class ContextWindow implements ContextSize {
  private learned: Learned = { model: undefined, tokens: ASSUMED_CONTEXT, source: 'assumed' };

  /** `configured`: `ollama.num_ctx`; `probe`: how to ask Ollama, when the model client can. */
  constructor(
    private readonly configured: number | undefined,
    private readonly probe?: ContextProbe,
  ) {}

  get tokens(): number {
    return this.configured ?? this.learned.tokens;
  }

  get source(): ContextSource {
    return this.configured === undefined ? this.learned.source : 'configured';
  }

  /** Whether asking Ollama could still change the size for `model`: a configured one never changes. */
  unsettled(model: string): boolean {
    return this.configured === undefined && (this.learned.model !== model || this.learned.source !== 'loaded');
  }

  /** Asks Ollama what `model` has now (nothing to ask when `num_ctx` is configured). */
  async refresh(model: string): Promise<void> {
    if (this.configured !== undefined || !this.probe) return;
    const found = await this.probe(model);
    const previous: Learned =
      this.learned.model === model ? this.learned : { model, tokens: ASSUMED_CONTEXT, source: 'assumed' };
    this.learned = learn(previous, found);
  }
}

function learn(previous: Learned, found: ModelContext): Learned {
  const cap = found.maximum ?? Infinity;
  if (found.loaded !== undefined) return { ...previous, tokens: Math.min(found.loaded, cap), source: 'loaded' };
  // Unloaded since (`keep_alive` ran out): it loads again with the same context.
  if (previous.source === 'loaded') return previous;
  return { ...previous, tokens: Math.min(ASSUMED_CONTEXT, cap), source: 'assumed' };
}
