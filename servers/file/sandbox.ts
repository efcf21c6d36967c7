/**
 * The file server's sandbox: every path a tool receives is resolved here, in four
 * layers (text checks → normalise → lexical containment → realpath re-check), so that
 * no `..`, absolute path or symbolic link can reach outside the allowed roots. A fifth
 * layer checks a file once it is open, against a link swapped in after the check.
 */
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, FileToolError } from './file-errors.js';
import { isWithinAny, normalisePath, pathTextProblem } from './path-checks.js';

export type Access = 'read' | 'write';

export interface SandboxPath {
  /** The real (symlink-free) absolute path the operation must use. */
  readonly real: string;
  /** The normalised path as asked for, links not followed: for lstat-style questions only. */
  readonly requested: string;
  /** How the path is shown to the model: relative to the first root when inside it. */
  readonly display: string;
  /** False only for a write target that does not exist yet. */
  readonly exists: boolean;
}

/** A configured root is unusable; the server must not start. */
export class RootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RootError';
  }
}

/** Checks that each root exists and is a directory; returns their real paths, de-duplicated. */
export function openRoots(roots: readonly string[]): string[] {
  if (roots.length === 0) throw new RootError('at least one root directory is required');
  const real = roots.map((root) => {
    let resolved: string;
    try {
      resolved = fs.realpathSync(path.resolve(root));
    } catch {
      throw new RootError(`root directory does not exist or is not accessible: ${root}`);
    }
    if (!fs.statSync(resolved).isDirectory()) throw new RootError(`root is not a directory: ${root}`);
    return resolved;
  });
  return [...new Set(real)];
}

export class Sandbox {
  /** Real paths of the roots; the first is where relative paths start. */
  readonly roots: readonly string[];
  /** Roots as given and as real paths, so absolute paths in either spelling pass layer 3. */
  private readonly lexicalRoots: readonly string[];

  constructor(roots: readonly string[]) {
    this.roots = openRoots(roots);
    this.lexicalRoots = [...new Set([...this.roots, ...roots.map((root) => path.resolve(root))])];
  }

  get primaryRoot(): string {
    return this.roots[0] as string;
  }

  /** Resolves model-supplied path text to a real path inside the roots, or throws a refusal. */
  async resolve(input: string, access: Access): Promise<SandboxPath> {
    // Security: layer 1, refuse empty paths and NUL bytes before any path arithmetic.
    const problem = pathTextProblem(input);
    if (problem !== undefined) throw new FileToolError(problem);
    // Security: layer 2, normalise so `..` segments are collapsed before the containment check.
    const absolute = normalisePath(input, this.primaryRoot);
    // Security: layer 3, lexical containment with a separator boundary, before touching the disk.
    if (!isWithinAny(absolute, this.lexicalRoots)) {
      throw new FileToolError(`Access denied: path outside allowed roots: ${input} (allowed: ${this.allowedText()})`);
    }
    const { real, exists } = await this.realTarget(absolute, input, access);
    return { real, exists, requested: absolute, display: this.display(real) };
  }

  /**
   * Security: layer 5, after opening. Between the realpath check and the open, a directory on
   * the checked path can be swapped for a link out of the roots (a race). The kernel's own
   * path of the open file must be inside; without /proc, the open file must be the very file
   * that the checked path, still inside, names now. Resolves with the kernel's path when it
   * could be asked, so that the caller knows the open file can be reached by its descriptor.
   */
  async assertOpenedInside(handle: FileHandle, checked: string, input: string): Promise<string | undefined> {
    const opened = await openedPath(handle);
    if (opened !== undefined) {
      this.assertRealInside(opened, input);
      return opened;
    }
    const [held, now, again] = await Promise.all([handle.stat(), fsp.stat(checked), fsp.realpath(checked)]);
    this.assertRealInside(again, input);
    if (held.dev !== now.dev || held.ino !== now.ino) {
      throw new FileToolError(`Access denied: ${input} was replaced while it was being opened`);
    }
    return undefined;
  }

  display(real: string): string {
    const relative = path.relative(this.primaryRoot, real);
    if (relative === '') return '.';
    return isWithinAny(real, [this.primaryRoot]) ? relative : real;
  }

  private allowedText(): string {
    return this.roots.join(', ');
  }

  private assertRealInside(real: string, input: string): void {
    // Security: layer 4, the realpath (all links followed) must still be inside a real root.
    if (!isWithinAny(real, this.roots)) {
      throw new FileToolError(
        `Access denied: ${input} resolves through a symbolic link to ${real}, outside allowed roots (allowed: ${this.allowedText()})`,
      );
    }
  }

  private async realTarget(
    absolute: string,
    input: string,
    access: Access,
  ): Promise<{ real: string; exists: boolean }> {
    try {
      const real = await fsp.realpath(absolute);
      this.assertRealInside(real, input);
      return { real, exists: true };
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
    if (access === 'read') throw new FileToolError(`No such file or directory: ${input}`);
    return { real: await this.realPathForNewFile(absolute, input), exists: false };
  }

  /** For a target that does not exist: the realpath of its nearest existing ancestor plus the missing names. */
  private async realPathForNewFile(absolute: string, input: string): Promise<string> {
    const missing: string[] = [];
    let current = absolute;
    for (;;) {
      // Security: a name realpath cannot find but lstat can is a dangling symlink; a write
      // through it would land wherever it points, so it is refused.
      if (await existsWithoutFollowing(current)) {
        throw new FileToolError(`Access denied: ${input} goes through a symbolic link whose target does not exist`);
      }
      missing.unshift(path.basename(current));
      const parent = path.dirname(current);
      if (parent === current) throw new FileToolError(`No existing parent directory for ${input}`);
      current = parent;
      let realParent: string;
      try {
        realParent = await fsp.realpath(current);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') continue;
        throw error;
      }
      // Security: the nearest existing ancestor, links resolved, must be inside a root.
      this.assertRealInside(realParent, input);
      return path.join(realParent, ...missing);
    }
  }
}

/**
 * The open file's entry in Linux's /proc/self/fd. A path through it reaches that very file
 * (the kernel jumps to it, it does not look its name up again), so a name swapped since the
 * open cannot redirect it.
 */
export function descriptorPath(handle: FileHandle): string {
  return `/proc/self/fd/${handle.fd}`;
}

/** Where the kernel says an open file is (Linux's /proc/self/fd), or undefined where that cannot be asked. */
export async function openedPath(handle: FileHandle): Promise<string | undefined> {
  try {
    return await fsp.readlink(descriptorPath(handle));
  } catch {
    return undefined;
  }
}

async function existsWithoutFollowing(target: string): Promise<boolean> {
  try {
    await fsp.lstat(target);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
}
