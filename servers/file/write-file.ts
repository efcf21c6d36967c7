/**
 * Atomic writes: the content goes to a temporary file in the target's own directory
 * and is renamed over the target, so readers see the old file or the new one, never half.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { FileToolError } from './file-errors.js';
import type { Sandbox, SandboxPath } from './sandbox.js';

export async function writeFileAtomic(sandbox: Sandbox, target: SandboxPath, input: string, content: string): Promise<string> {
  let mode: number | undefined;
  if (target.exists) {
    const info = await fsp.stat(target.real);
    if (!info.isFile()) throw new FileToolError(`${target.display} exists and is not a regular file; refusing to replace it`);
    mode = info.mode & 0o7777;
  } else {
    await sandbox.ensureParentDirectory(target, input);
  }

  // Same directory as the target, so the rename never crosses file systems.
  const temp = path.join(path.dirname(target.real), `.${path.basename(target.real)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // Security: 'wx' (O_EXCL) fails on anything already there, including a planted symlink.
    await fsp.writeFile(temp, content, { encoding: 'utf8', flag: 'wx', mode: mode ?? 0o644 });
    if (mode !== undefined) await fsp.chmod(temp, mode);
    await fsp.rename(temp, target.real);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  return `${target.exists ? 'Replaced' : 'Created'} ${target.display} (${bytes} bytes written)`;
}
