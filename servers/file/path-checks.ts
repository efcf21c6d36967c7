/**
 * Pure path checks for the sandbox: input text validation and containment with a
 * path-separator boundary. No filesystem access here, so every rule is unit-testable.
 */
import path from 'node:path';

/** Why a piece of path text was refused, or undefined when it may be resolved. */
export function pathTextProblem(input: string): string | undefined {
  // Security: an empty path would silently mean "the root"; make the caller say so.
  if (input.trim() === '') return 'Invalid path: empty path (use "." for the root directory)';
  // Security: NUL truncates paths in the OS layer; a NUL byte is never a legitimate path.
  if (input.includes('\0')) return 'Invalid path: contains a NUL byte';
  return undefined;
}

/**
 * True when `candidate` is `root` itself or lies below it. Both must be absolute;
 * they are normalised here so `a/../b` tricks cannot pass a textual prefix test.
 */
export function isWithin(candidate: string, root: string): boolean {
  const child = path.resolve(candidate);
  const parent = path.resolve(root);
  if (child === parent) return true;
  // Security: compare against `root + separator`, so `/tmp/root-evil` is not inside `/tmp/root`.
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

export function isWithinAny(candidate: string, roots: readonly string[]): boolean {
  return roots.some((root) => isWithin(candidate, root));
}

/** Resolves user text to an absolute, normalised path; relative text is taken from `base`. */
export function normalisePath(input: string, base: string): string {
  return path.isAbsolute(input) ? path.resolve(input) : path.resolve(base, input);
}
