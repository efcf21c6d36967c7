/**
 * Reading one file for a model: capped at a byte budget (the result says so, with the
 * real size), and binary files are described rather than dumped into the context.
 */
import fs from 'node:fs';
import { openInside } from './checked-open.js';
import { FileToolError } from './file-errors.js';
import type { Sandbox, SandboxPath } from './sandbox.js';

/** Default read budget: large enough for most source files, small enough for a local model's context. */
export const DEFAULT_MAX_READ_BYTES = 256 * 1024;
/** How much of the start of a file is inspected for NUL bytes (the usual binary heuristic). */
const BINARY_SNIFF_BYTES = 8 * 1024;
/** Non-blocking: opening a FIFO or device for reading could otherwise block the server forever. */
const OPEN_FOR_READ = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

export async function readFileCapped(
  sandbox: Sandbox,
  target: SandboxPath,
  input: string,
  maxBytes: number,
): Promise<string> {
  // Security: what was opened is checked, not only the path that was checked before.
  const { handle } = await openInside(sandbox, target.real, input, OPEN_FOR_READ);
  let bytes: Buffer;
  let size: number;
  try {
    const info = await handle.stat();
    if (info.isDirectory()) {
      throw new FileToolError(`${target.display} is a directory; use list_directory to see its entries`);
    }
    if (!info.isFile()) throw new FileToolError(`${target.display} is not a regular file`);
    size = info.size;
    const buffer = Buffer.alloc(Math.min(maxBytes, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    bytes = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }

  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return `${target.display} is a binary file (${size} bytes); its content is not shown.`;
  }
  // `stream: true` holds back a multi-byte character cut at the cap instead of emitting U+FFFD.
  const text = new TextDecoder('utf-8').decode(bytes, { stream: size > bytes.length });
  if (size <= bytes.length) return text;
  return `${text}\n\n[truncated: showed the first ${bytes.length} of ${size} bytes of ${target.display}]`;
}
