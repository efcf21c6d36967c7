/**
 * The log file, kept by size: `<name>.<n>.<ext>` beside the configured path, the next number started
 * when a file would grow past `maxBytes`, the oldest deleted beyond `files` (those of earlier runs
 * too, so the total stays bounded across restarts). A run goes on in the newest file it finds.
 *
 * Written here on pino's own file stream rather than with a rotation package: the one pino offers
 * (pino-roll) brings a date library for the time-based rotation this log does not use, and would
 * be read at every start for it.
 *
 * The configured path itself becomes a symbolic link to the file being written, so whoever was told
 * "the log is at `logging.file`" (`tail -F`, a script, a bug report) reads the live log.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';

export interface RotationOptions {
  /** Where the log is read: a link to the numbered file being written. */
  file: string;
  /** A file that reaches this size is closed and the next one started. */
  maxBytes?: number;
  /** Files kept, the one being written included. */
  files?: number;
}

const MEGABYTE = 1024 * 1024;

/** Five files of 10 MB: days of debug logging, and 50 MB at most whatever floods it. */
export const ROTATION_DEFAULTS = { maxBytes: 10 * MEGABYTE, files: 5 } as const;

/** Security: the log holds what servers and the model said; only its owner reads it. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

type FileStream = ReturnType<typeof pino.destination>;

/** What pino writes to: whole records, one `write` each. */
export class RotatingLog {
  private stream: FileStream;
  private size: number;

  constructor(
    private readonly numbered: NumberedFiles,
    private readonly limits: Required<Omit<RotationOptions, 'file'>>,
    private readonly onRoll: (file: string) => void,
  ) {
    this.stream = openFile(numbered.current());
    this.size = fs.statSync(numbered.current()).size;
  }

  /** The numbered file being written now. */
  get file(): string {
    return this.numbered.current();
  }

  write(record: string): boolean {
    const bytes = Buffer.byteLength(record);
    // A file holds at least one record, however large: a record is never split across two.
    if (this.size > 0 && this.size + bytes > this.limits.maxBytes) this.roll();
    this.size += bytes;
    return this.stream.write(record);
  }

  flushSync(): void {
    this.stream.flushSync();
  }

  end(): void {
    this.stream.end();
  }

  private roll(): void {
    this.stream.flushSync();
    this.stream.end();
    this.stream = openFile(this.numbered.next());
    this.size = 0;
    this.numbered.keepNewest(this.limits.files);
    this.onRoll(this.numbered.current());
  }
}

/** Synchronous writes: a crash mid-turn must still leave a complete, readable log. */
function openFile(file: string): FileStream {
  const stream = pino.destination({ dest: file, sync: true, mode: FILE_MODE });
  narrow(file);
  return stream;
}

/**
 * A file made by an older version, or by hand, may be readable by others. One that cannot be
 * narrowed (not the user's own) is left as it is and still written: logging never stops the chat.
 */
function narrow(file: string): void {
  try {
    fs.chmodSync(file, FILE_MODE);
  } catch {
    // Left as it is.
  }
}

/** The `<name>.<n>.<ext>` files beside the configured path. */
export class NumberedFiles {
  private readonly dir: string;
  private readonly stem: string;
  private readonly extension: string;
  private number: number;

  constructor(file: string) {
    this.dir = path.dirname(file);
    this.extension = path.extname(file);
    this.stem = path.basename(file, this.extension);
    this.number = Math.max(1, ...this.existing());
  }

  current(): string {
    return this.nameOf(this.number);
  }

  next(): string {
    this.number += 1;
    return this.current();
  }

  /** Narrows every file to the owner's alone: an older version made them 0644. */
  narrowAll(): void {
    for (const number of this.existing()) narrow(this.nameOf(number));
  }

  /** Deletes all but the `count` newest, the one being written included. */
  keepNewest(count: number): void {
    for (const number of this.existing().filter((number) => number <= this.number - count))
      fs.rmSync(this.nameOf(number), { force: true });
  }

  private nameOf(number: number): string {
    return path.join(this.dir, `${this.stem}.${number}${this.extension}`);
  }

  private existing(): number[] {
    const prefix = `${this.stem}.`;
    return fs.readdirSync(this.dir).flatMap((name) => {
      if (!name.startsWith(prefix) || !name.endsWith(this.extension)) return [];
      const digits = name.slice(prefix.length, name.length - this.extension.length);
      return /^\d+$/.test(digits) ? [Number(digits)] : [];
    });
  }
}

/**
 * Opens the log; `onLinkProblem` hears when the link at `file` could not be placed (the log is
 * still written, under its numbered name).
 */
export function openRotatingLog(options: RotationOptions, onLinkProblem: (error: unknown) => void): RotatingLog {
  fs.mkdirSync(path.dirname(options.file), { recursive: true, mode: FOLDER_MODE });
  keepUnrotatedLog(options.file);
  const numbered = new NumberedFiles(options.file);
  // Before the first write of this run: appended after a torn line, that line would swallow it.
  dropTornLastLine(numbered.current());
  const relink = (target: string): void => {
    try {
      pointLinkAt(options.file, target);
    } catch (error) {
      onLinkProblem(error);
    }
  };
  const limits = {
    maxBytes: options.maxBytes ?? ROTATION_DEFAULTS.maxBytes,
    files: options.files ?? ROTATION_DEFAULTS.files,
  };
  const log = new RotatingLog(numbered, limits, relink);
  numbered.keepNewest(limits.files);
  numbered.narrowAll();
  relink(log.file);
  return log;
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
  if (!isRegularFile) return;
  fs.renameSync(file, `${file}.old`);
  narrow(`${file}.old`);
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
