/** `value` when it is a whole number above zero (a context length, a token count); else undefined. */
export function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
