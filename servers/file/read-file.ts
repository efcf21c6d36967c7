/**
 * Reading one file for a model: capped at a byte budget (the result says so, with the
 * real size), and binary files are described rather than dumped into the context.
 */
import fsp from 'node:fs/promises';
import { FileToolError } from './file-errors.js';
import type { SandboxPath } from './sandbox.js';

/** Default read budget: large enough for most source files, small enough for a local model's context. */
export const DEFAULT_MAX_READ_BYTES = 256 * 1024;
/** How much of the start of a file is inspected for NUL bytes (the usual binary heuristic). */
const BINARY_SNIFF_BYTES = 8 * 1024;

export async function readFileCapped(target: SandboxPath, maxBytes: number): Promise<string> {
  // Stat before opening: opening a FIFO or device for reading could block the server forever.
  const info = await fsp.stat(target.real);
  if (info.isDirectory()) {
    throw new FileToolError(`${target.display} is a directory; use list_directory to see its entries`);
  }
  if (!info.isFile()) throw new FileToolError(`${target.display} is not a regular file`);

  const handle = await fsp.open(target.real, 'r');
  let bytes: Buffer;
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, info.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    bytes = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }

  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return `${target.display} is a binary file (${info.size} bytes); its content is not shown.`;
  }
  // `stream: true` holds back a multi-byte character cut at the cap instead of emitting U+FFFD.
  const text = new TextDecoder('utf-8').decode(bytes, { stream: info.size > bytes.length });
  if (info.size <= bytes.length) return text;
  return `${text}\n\n[truncated: showed the first ${bytes.length} of ${info.size} bytes of ${target.display}]`;
}
