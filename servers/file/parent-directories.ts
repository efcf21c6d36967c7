/**
 * Opening the directory a write target goes in, creating missing parents one at a time from its
 * root. Each directory is made through its parent's checked open handle (its /proc/self/fd path),
 * then opened without following a link and checked itself: a directory on the way swapped for a
 * link out of the roots makes the write fail, and never makes a directory appear outside.
 * (`mkdir -p` on the checked name would follow such a link and leave an empty directory outside.)
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type CheckedHandle, openDirectoryInside } from './checked-open.js';
import { errnoCode, FileToolError } from './file-errors.js';
import { isWithin } from './path-checks.js';
import type { Sandbox, SandboxPath } from './sandbox.js';

/** Opens `name` under the checked directory `parent`, creating it first when it is missing. */
async function openOrMakeChild(
  sandbox: Sandbox,
  parent: CheckedHandle,
  name: string,
  input: string,
): Promise<CheckedHandle> {
  const child = path.join(parent.path, name);
  try {
    await fsp.mkdir(child);
  } catch (error) {
    // Already there (made before, or by a concurrent call): it is checked like a new one.
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  return openDirectoryInside(sandbox, child, input, `A parent of ${input} is not a directory`);
}

/** The checked, open directory `target` goes in; the caller closes it. */
export async function openTargetDirectory(
  sandbox: Sandbox,
  target: SandboxPath,
  input: string,
): Promise<CheckedHandle> {
  const parent = path.dirname(target.real);
  if (target.exists) return openDirectoryInside(sandbox, parent, input, `A parent of ${input} is not a directory`);
  // `target.real` is inside a root, so its parent is that root or below it.
  const root = sandbox.roots.find((candidate) => isWithin(parent, candidate));
  if (root === undefined) throw new FileToolError(`Access denied: ${input} is outside allowed roots`);
  const names = path
    .relative(root, parent)
    .split(path.sep)
    .filter((name) => name !== '');
  let current = await openDirectoryInside(sandbox, root, input, `${root} is not a directory`);
  try {
    for (const name of names) {
      const child = await openOrMakeChild(sandbox, current, name, input);
      await current.handle.close();
      current = child;
    }
  } catch (error) {
    await current.handle.close();
    throw error;
  }
  return current;
}
