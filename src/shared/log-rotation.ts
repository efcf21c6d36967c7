/**
 * The log file, kept by size. pino-roll writes `<name>.<n>.<ext>` beside the configured path, starts
 * the next number when a file reaches `maxBytes`, and deletes the oldest beyond `files`.
 *
 * It runs in this process as the stream pino writes to, not as a pino transport: a transport is a
 * worker thread that loads its target by file path, and the bundled CLI has no such file.
 *
 * The configured path itself becomes a symbolic link to the file being written, so whoever was told
 * "the log is at `logging.file`" (`tail -F`, a script, a bug report) reads the live log.
 *
 * Security: every file of the log is mode 0600, and a folder made for it 0700: a log holds what
 * servers said and what the user asked them. A file an older run left wider is tightened.
 */
import fs from 'node:fs';
import path from 'node:path';
import pinoRoll, { type RollStream } from 'pino-roll';

export interface RotationOptions {
  /** Where the log is read: a link to the numbered file being written. */
  file: string;
  /** A file that reaches this size is closed and the next one started. */
  maxBytes?: number;
  /** Files kept, the one being written included. */
  files?: number;
}

export type { RollStream };

const MEGABYTE = 1024 * 1024;

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/** Five files of 10 MB: days of debug logging, and 50 MB at most whatever floods it. */
export const ROTATION_DEFAULTS = { maxBytes: 10 * MEGABYTE, files: 5 } as const;

/**
 * Opens the stream; `onProblem` hears what could not be done about the files (the link at `file`
 * placed, a file's mode tightened): the log is still written.
 */
export async function openRotatingLog(
  options: RotationOptions,
  onProblem: (error: unknown, what: string) => void,
): Promise<RollStream> {
  // An existing folder keeps its mode: it may be one the user shares on purpose (a configured /var/log/x).
  fs.mkdirSync(path.dirname(options.file), { recursive: true, mode: FOLDER_MODE });
  keepUnrotatedLog(options.file);
  tightenEarlierFiles(options.file, onProblem);
  const stream = await pinoRoll({
    file: options.file,
    // pino-roll reads a plain number as megabytes.
    size: (options.maxBytes ?? ROTATION_DEFAULTS.maxBytes) / MEGABYTE,
    // Old files from earlier runs count too, so the total stays bounded across restarts.
    limit: { count: options.files ?? ROTATION_DEFAULTS.files, removeOtherLogFiles: true },
    // Synchronous writes: a crash mid-turn must still leave a complete, readable log.
    sync: true,
    mkdir: true,
    mode: FILE_MODE,
  });
  // Before the first write of this run: appended after a torn line, that line would swallow it.
  dropTornLastLine(stream.file);
  const opened = (): void => {
    attempt(() => fs.fchmodSync(stream.fd, FILE_MODE), 'the log file could not be made private', onProblem);
    attempt(() => pointLinkAt(options.file, stream.file), 'the log file link could not be placed', onProblem);
  };
  opened();
  // SonicBoom emits `ready` each time pino-roll reopens it on the next numbered file.
  stream.on('ready', opened);
  return stream;
}

function attempt(step: () => void, what: string, onProblem: (error: unknown, what: string) => void): void {
  try {
    step();
  } catch (error) {
    onProblem(error, what);
  }
}

/**
 * The numbered files and the `.old` file earlier runs left, tightened to 0600: a run of an older
 * mcp-chat made them 0644. Links are left alone (chmod would change what they point at).
 */
function tightenEarlierFiles(file: string, onProblem: (error: unknown, what: string) => void): void {
  const { dir, name, ext, base } = path.parse(file);
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const numbered = new RegExp(`^${escape(name)}\\.\\d+${escape(ext)}$`);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !(numbered.test(entry.name) || entry.name === `${base}.old`)) continue;
    const target = path.join(dir, entry.name);
    attempt(
      () => {
        if ((fs.lstatSync(target).mode & 0o777) !== FILE_MODE) fs.chmodSync(target, FILE_MODE);
      },
      'an earlier log file could not be made private',
      onProblem,
    );
  }
}

/** How far back a torn line is looked for at a time. */
const TAIL_CHUNK = 64 * 1024;

/**
 * A run killed mid-write (SIGKILL, power loss) can leave the last line cut: the kernel may stop a
 * write between pages. That part is cut off, so every line of the log stays a whole JSON record.
 */
export function dropTornLastLine(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r+');
  } catch {
    return; // Not written yet.
  }
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.alloc(TAIL_CHUNK);
    for (let end = size; end > 0; end -= TAIL_CHUNK) {
      const start = Math.max(0, end - TAIL_CHUNK);
      const read = fs.readSync(fd, buffer, 0, end - start, start);
      const newline = buffer.subarray(0, read).lastIndexOf(0x0a);
      if (newline >= 0 || start === 0) {
        const whole = newline >= 0 ? start + newline + 1 : 0;
        // A file that grew while it was read is another run's, mid-write: its line will end whole.
        if (whole < size && fs.fstatSync(fd).size === size) fs.ftruncateSync(fd, whole);
        return;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A regular file at the link's path is a log written before rotation (or by hand): it is moved
 * aside to `<file>.old`, not overwritten by the link. One such file at most, replaced next time.
 */
function keepUnrotatedLog(file: string): void {
  let isRegularFile = false;
  try {
    isRegularFile = fs.lstatSync(file).isFile();
  } catch {
    return; // Nothing there yet.
  }
  if (isRegularFile) fs.renameSync(file, `${file}.old`);
}

/** Replaces the link in one step (a temporary link renamed over it), so a reader never finds it missing. */
function pointLinkAt(link: string, target: string): void {
  const name = path.basename(target);
  try {
    if (fs.readlinkSync(link) === name) return;
  } catch {
    // Not a link yet.
  }
  const temporary = `${link}.${process.pid}.link`;
  fs.rmSync(temporary, { force: true });
  fs.symlinkSync(name, temporary);
  try {
    fs.renameSync(temporary, link);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
