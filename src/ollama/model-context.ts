/**
 * The context sizes in Ollama's replies, read defensively: `/api/ps` lists the loaded models,
 * each with the `context_length` it was given (servers before it was added leave it out);
 * `/api/show`'s `model_info` holds the model's own maximum under `<architecture>.context_length`.
 */
import { isRecord } from '../shared/is-record.js';
import { positiveInteger } from '../shared/positive-integer.js';
import { sameModel } from './wire.js';

/** The context `model` was loaded with, from `/api/ps`; undefined when it is not loaded or not said. */
export function readLoadedContext(listing: unknown, model: string): number | undefined {
  const models: unknown[] = isRecord(listing) && Array.isArray(listing.models) ? listing.models : [];
  const entry = models.find(
    (candidate) =>
      isRecord(candidate) &&
      [candidate.name, candidate.model].some((name) => typeof name === 'string' && sameModel(name, model)),
  );
  return isRecord(entry) ? positiveInteger(entry.context_length) : undefined;
}

/** The model's own longest context, from `/api/show`'s `model_info`. */
export function readMaximumContext(show: unknown): number | undefined {
  const info = isRecord(show) ? show.model_info : undefined;
  if (!isRecord(info)) return undefined;
  const architecture = info['general.architecture'];
  return typeof architecture === 'string' ? positiveInteger(info[`${architecture}.context_length`]) : undefined;
}
