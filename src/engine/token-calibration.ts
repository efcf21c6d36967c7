/**
 * The token estimate (characters / 4) corrected by what Ollama reports back: when its own count
 * of a prompt (`prompt_eval_count`) runs over the estimate, later prompts are given the room that
 * many estimated tokens really take. Policy: only ever corrected upwards (a cached prompt is
 * counted short), and never past `MAX_RATIO`.
 */

/** A text whose tokens are this much denser than the estimate is not plausible: a count gone wrong. */
const MAX_RATIO = 4;

export class TokenCalibration {
  private ratio = 1;

  /** Ollama counted `counted` tokens of a prompt the estimate put at `estimated`. */
  note(estimated: number, counted: number | undefined): void {
    if (counted === undefined || estimated <= 0) return;
    this.ratio = Math.min(MAX_RATIO, Math.max(this.ratio, counted / estimated));
  }

  /** A context of `numCtx` tokens, as Ollama counts them, in estimated tokens. */
  estimatedContext(numCtx: number): number {
    return Math.floor(numCtx / this.ratio);
  }
}
