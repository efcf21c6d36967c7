/**
 * Writes a state file whole: to a temporary file beside it, then renamed over the old one, so
 * a crash or a concurrent reader never sees half a file. Mode 0600 in a 0700 directory: what
 * mcp-chat remembers about a person is theirs alone.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function writeFileAtomic(file: string, text: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomUUID()}.tmp`);
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
