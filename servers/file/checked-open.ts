/**
 * Opening what the sandbox checked, and checking what was opened: every tool reaches the disk
 * through here. A checked real path has no symbolic link in it, so the last name is opened
 * without following one (a link there was swapped in), and the open file's own location is
 * checked against the roots (a directory higher up may have been swapped). Once checked, an
 * open directory is used through its descriptor's path, so no racing name is looked up again.
 */
import fs, { type Dirent } from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import { errnoCode, FileToolError } from './file-errors.js';
import { descriptorPath, type Sandbox } from './sandbox.js';

/** Windows has no O_NOFOLLOW; there the after-open check is all there is. */
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const OPEN_DIRECTORY = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0);

/** An open file or directory whose real location was checked to be inside the roots. */
export interface CheckedHandle {
  readonly handle: FileHandle;
  /**
   * A path that reaches this open file and nothing else: its /proc/self/fd entry on Linux.
   * Where there is no /proc it is the checked name, which narrows the race but cannot close it.
   */
  readonly path: string;
}

/**
 * Opens `location` (a real path the sandbox checked, or a name under a checked handle's
 * `path`) with `flags`, never following a link at its last name, and checks where it is.
 */
export async function openInside(
  sandbox: Sandbox,
  location: string,
  input: string,
  flags: number,
): Promise<CheckedHandle> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(location, flags | NO_FOLLOW);
  } catch (error) {
    if (errnoCode(error) !== 'ELOOP') throw error;
    throw new FileToolError(`Access denied: ${input} was replaced by a symbolic link while it was being opened`);
  }
  try {
    const opened = await sandbox.assertOpenedInside(handle, location, input);
    return { handle, path: opened === undefined ? location : descriptorPath(handle) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Opens a directory like `openInside`. Anything else at `location`, a link swapped in
 * included (O_DIRECTORY with O_NOFOLLOW refuses a link as not a directory), is `notDirectory`.
 */
export async function openDirectoryInside(
  sandbox: Sandbox,
  location: string,
  input: string,
  notDirectory: string,
): Promise<CheckedHandle> {
  try {
    return await openInside(sandbox, location, input, OPEN_DIRECTORY);
  } catch (error) {
    if (errnoCode(error) === 'ENOTDIR') throw new FileToolError(notDirectory);
    throw error;
  }
}

/** Opens a directory like `openDirectoryInside`, runs `use` on it and closes it. */
export async function usingDirectoryInside<T>(
  sandbox: Sandbox,
  location: string,
  input: string,
  notDirectory: string,
  use: (directory: CheckedHandle) => Promise<T>,
): Promise<T> {
  const directory = await openDirectoryInside(sandbox, location, input, notDirectory);
  try {
    return await use(directory);
  } finally {
    await directory.handle.close();
  }
}

/** The entries of a directory, read through its checked handle, never through its name again. */
export function readDirectoryInside(
  sandbox: Sandbox,
  location: string,
  input: string,
  notDirectory: string,
): Promise<Dirent[]> {
  return usingDirectoryInside(sandbox, location, input, notDirectory, (directory) =>
    fsp.readdir(directory.path, { withFileTypes: true }),
  );
}
