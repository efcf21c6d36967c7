/**
 * Writes a state file whole: to a temporary file beside it, then renamed over the old one, so
 * a crash or a concurrent reader never sees half a file. Mode 0600 in a 0700 directory: what
 * mcp-chat remembers about a person is theirs alone.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

/** A name beside `file` no other writer (process or call) uses. */
function tempFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomUUID()}.tmp`);
}

export function writeFileAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = tempFor(file);
  try {
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      // The mode given to open is reduced by the umask; set it exactly.
      fs.fchmodSync(fd, 0o600);
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** `writeFileAtomic` without blocking the event loop (a session saved while the chat goes on). */
export async function writeFileAtomicAsync(file: string, text: string): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = tempFor(file);
  try {
    const handle = await fsp.open(temp, 'wx', 0o600);
    try {
      await handle.chmod(0o600);
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temp, file);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
}
