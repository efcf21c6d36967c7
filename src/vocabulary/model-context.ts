/**
 * What Ollama says of a model's context, in tokens: the context the loaded model was given
 * (`/api/ps`), and the longest the model itself takes (`/api/show`). Either is absent when
 * Ollama did not say: the model is not loaded, the server is older, or the look-up failed.
 */
export interface ModelContext {
  /** The context allocated to the model as loaded now: what a request really has. */
  loaded?: number;
  /** The model's own maximum (`<arch>.context_length`): an upper bound, usually above what is allocated. */
  maximum?: number;
}
