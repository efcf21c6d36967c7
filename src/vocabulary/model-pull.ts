/**
 * Where a model's download stands, as the front ends show it. The Ollama client folds
 * `/api/pull`'s per-layer lines into this; the REPL and `mcp-chat pull` draw it.
 */
export interface PullProgress {
  /** Ollama's word for the step: `pulling manifest`, `pulling 8934d96d3f08`, `verifying sha256 digest`, … */
  status: string;
  /** Bytes of the layers reported so far: Ollama tells a layer's size only once its download starts. */
  total: number;
  /** Bytes of those layers on disk, including what an earlier, interrupted pull left. */
  completed: number;
  /** Bytes that arrived during this pull (what was on disk already left out): the rate is measured on it. */
  transferred: number;
}

/** Said when a pull stops before the end (cancelled, or the connection lost). */
export const PULL_RESUMES = 'Ollama keeps what was downloaded: pulling the model again resumes.';
