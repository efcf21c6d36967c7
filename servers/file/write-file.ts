/**
 * Atomic writes: the content goes to a temporary file in the target's own directory
 * and is renamed over the target, so readers see the old file or the new one, never half.
 */
import { randomBytes } from 'node:crypto';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { FileToolError } from './file-errors.js';
import { makeParentDirectories } from './parent-directories.js';
import { openedPath, type Sandbox, type SandboxPath } from './sandbox.js';

export async function writeFileAtomic(
  sandbox: Sandbox,
  target: SandboxPath,
  input: string,
  content: string,
): Promise<string> {
  let mode: number | undefined;
  if (target.exists) {
    const info = await fsp.stat(target.real);
    if (!info.isFile())
      throw new FileToolError(`${target.display} exists and is not a regular file; refusing to replace it`);
    mode = info.mode & 0o7777;
  } else {
    await makeParentDirectories(sandbox, target, input);
  }

  // Same directory as the target, so the rename never crosses file systems.
  const temp = path.join(
    path.dirname(target.real),
    `.${path.basename(target.real)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await writeTemp(sandbox, temp, input, content, mode);
    // The temporary file exists only in the checked directory: if that was swapped since, this fails.
    await fsp.rename(temp, target.real);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  return `${target.exists ? 'Replaced' : 'Created'} ${target.display} (${bytes} bytes written)`;
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
