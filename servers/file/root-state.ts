/**
 * Where the file tools may work right now: a `Sandbox` over the current roots, or the reason
 * there is none yet. Fixed when the roots come from the command line; replaced as a whole
 * when they come from the client, each time it sends its roots again.
 */
import { FileToolError } from './file-errors.js';
import { Sandbox } from './sandbox.js';

/** The result of one look at the roots: a sandbox, or why there is none. */
export type RootsOutcome = { readonly sandbox: Sandbox } | { readonly missing: string };

const HOW_TO_GIVE_ONE =
  'To give it one, put a directory path after main.js in the server\'s "args" in mcp_config.json, ' +
  'or have the MCP client offer a directory as a root.';

export class RootState {
  private outcome: RootsOutcome;
  /** The latest update; tool calls wait for it, so a call never races the roots it follows. */
  private pending: Promise<void> = Promise.resolve();
  private generation = 0;
  private readonly listeners: Array<(sandbox: Sandbox | undefined) => void> = [];

  private constructor(outcome: RootsOutcome) {
    this.outcome = outcome;
  }

  /** Roots from the command line: checked now (a bad one throws `RootError`) and never changed. */
  static fixed(roots: readonly string[]): RootState {
    return new RootState({ sandbox: new Sandbox(roots) });
  }

  /** Roots that will come later (from the client); until then every tool call says why there are none. */
  static awaiting(missing: string): RootState {
    return new RootState({ missing });
  }

  /** The sandbox now, without waiting for an update in flight: for texts, never for access. */
  get sandboxNow(): Sandbox | undefined {
    return 'sandbox' in this.outcome ? this.outcome.sandbox : undefined;
  }

  /** The sandbox a tool call must use, once any update in flight has landed; a refusal naming the fix otherwise. */
  async current(): Promise<Sandbox> {
    // Another update may start while this one is awaited; only the latest one counts.
    for (let awaited: Promise<void> | undefined; awaited !== this.pending;) {
      awaited = this.pending;
      await awaited;
    }
    if ('sandbox' in this.outcome) return this.outcome.sandbox;
    throw new FileToolError(`The file server has no root directory yet: ${this.outcome.missing}. ${HOW_TO_GIVE_ONE}`);
  }

  /**
   * Replaces the roots with what `load` finds. Updates may overlap (the client can change its
   * roots twice in a row); an older one that finishes late is dropped, so the newest list wins.
   */
  update(load: () => Promise<RootsOutcome>): void {
    const generation = ++this.generation;
    this.pending = load().then(
      (outcome) => {
        if (generation === this.generation) this.apply(outcome);
      },
      (error: unknown) => {
        // `load` reports its own failures as outcomes; this is the last guard, so a bug cannot leave stale roots.
        if (generation === this.generation) this.apply({ missing: `reading the roots failed: ${String(error)}` });
      },
    );
  }

  /** Sets the outcome at once (e.g. "the client does not offer roots"), dropping any update in flight. */
  set(outcome: RootsOutcome): void {
    this.generation++;
    this.apply(outcome);
  }

  onChange(listener: (sandbox: Sandbox | undefined) => void): void {
    this.listeners.push(listener);
  }

  private apply(outcome: RootsOutcome): void {
    this.outcome = outcome;
    for (const listener of this.listeners) listener(this.sandboxNow);
  }
}
