/**
 * The order the clients take in each round: rotated one place a round, so each leads, follows
 * and sits between the others equally often, and a slow moment of a shared machine lands on
 * every client rather than one. Pure.
 */

export function roundOrder<T>(sides: T[], round: number): T[] {
  if (sides.length === 0) return [];
  const shift = round % sides.length;
  return [...sides.slice(shift), ...sides.slice(0, shift)];
}
