/**
 * A full garbage collection in the test process, for leak tests: heap figures compare only after
 * one. vitest starts its workers with `--expose-gc` (vitest.config.ts).
 */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('no gc(): the test workers must run with --expose-gc (vitest.config.ts)');
  gc();
}
