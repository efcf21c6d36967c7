/**
 * Atomic writes: the content goes to a temporary file in the target's own directory
 * and is renamed over the target, so readers see the old file or the new one, never half.
 * Both names are reached through the checked directory's open descriptor, never through the
 * path again: rename(2) looks its two paths up one after the other, so a directory swapped
 * for a link between those lookups would otherwise move the file out of the roots.
 */
import { randomBytes } from 'node:crypto';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { FileToolError } from './file-errors.js';
import { openTargetDirectory } from './parent-directories.js';
import { openedPath, type Sandbox, type SandboxPath } from './sandbox.js';

export async function writeFileAtomic(
  sandbox: Sandbox,
  target: SandboxPath,
  input: string,
  content: string,
): Promise<string> {
  const directory = await openTargetDirectory(sandbox, target, input);
  try {
    const name = path.basename(target.real);
    const final = path.join(directory.path, name);
    const mode = target.exists ? await replacedFileMode(final, target.display) : undefined;
    const temp = path.join(directory.path, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeTemp(sandbox, temp, input, content, mode);
      await fsp.rename(temp, final);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
  } finally {
    await directory.handle.close();
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  return `${target.exists ? 'Replaced' : 'Created'} ${target.display} (${bytes} ${bytes === 1 ? 'byte' : 'bytes'} written)`;
}

/** The permissions the replaced file had, kept by the new one; only a regular file is replaced. */
async function replacedFileMode(final: string, display: string): Promise<number> {
  // lstat: a link swapped in since the check is refused, never followed to describe its target.
  const info = await fsp.lstat(final);
  if (!info.isFile()) throw new FileToolError(`${display} exists and is not a regular file; refusing to replace it`);
  return info.mode & 0o7777;
}

/** Creates the temporary file, checks where it really is, and only then writes to it. */
async function writeTemp(
  sandbox: Sandbox,
  temp: string,
  input: string,
  content: string,
  mode: number | undefined,
): Promise<void> {
  // Security: 'wx' (O_EXCL) fails on anything already there, including a planted symlink.
  const handle = await fsp.open(temp, 'wx', mode ?? 0o644);
  try {
    // Security: the directory may have been swapped for a link out of the roots since the check.
    await sandbox.assertOpenedInside(handle, temp, input).catch(async (error: unknown) => {
      await discardStray(handle);
      throw error;
    });
    await handle.writeFile(content, 'utf8');
    if (mode !== undefined) await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

/** Removes an empty file the race made outside the roots, by the kernel's path for it. */
async function discardStray(handle: FileHandle): Promise<void> {
  const where = await openedPath(handle);
  if (where !== undefined) await fsp.rm(where, { force: true });
}
