/** A count with its noun in the number it takes: `1 step`, `2 steps`, `0 steps`. */
export function counted(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : nouns}`;
}
