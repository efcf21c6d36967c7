/**
 * Metadata of one path (type, size, times, permissions). The target's own metadata is
 * reported; when the path given was a link inside the roots, that is said too.
 */
import type { Stats } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { usingDirectoryInside } from './checked-open.js';
import { FileToolError } from './file-errors.js';
import type { Sandbox, SandboxPath } from './sandbox.js';

function typeOf(info: Stats): string {
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'directory';
  return 'other';
}

/** `rwxr-xr-x (755)` style, the two forms people and models both recognise. */
export function formatPermissions(mode: number): string {
  const bits = mode & 0o777;
  const letters = ['r', 'w', 'x'];
  let text = '';
  for (let shift = 8; shift >= 0; shift--) {
    text += bits & (1 << shift) ? letters[(8 - shift) % 3] : '-';
  }
  return `${text} (${bits.toString(8).padStart(3, '0')})`;
}

/**
 * The target's metadata, read through its checked parent directory: the target itself is never
 * opened (a FIFO or a device is described, not opened), and its name is looked up in the parent
 * the handle holds, without following a link, so a directory or link swapped in cannot redirect it.
 */
async function statInside(sandbox: Sandbox, target: SandboxPath, input: string): Promise<Stats> {
  const notDirectory = `Access denied: a parent directory of ${input} was replaced while it was being inspected`;
  if (sandbox.roots.includes(target.real)) {
    // A root has no parent inside the roots; it is a directory, so it is opened itself.
    return usingDirectoryInside(sandbox, target.real, input, notDirectory, (root) => root.handle.stat());
  }
  const info = await usingDirectoryInside(sandbox, path.dirname(target.real), input, notDirectory, (parent) =>
    fsp.lstat(path.join(parent.path, path.basename(target.real))),
  );
  // Security: the checked real path has no link in it, so a link here was swapped in since.
  if (info.isSymbolicLink()) {
    throw new FileToolError(`Access denied: ${input} was replaced by a symbolic link while it was being inspected`);
  }
  return info;
}

export async function fileInfo(sandbox: Sandbox, target: SandboxPath, input: string): Promise<string> {
  const info = await statInside(sandbox, target, input);
  // lstat of the requested path only tells whether it was itself a link; the link is inside a root.
  const isLink = (await fsp.lstat(target.requested)).isSymbolicLink();
  const lines = [
    `path: ${target.display}`,
    `type: ${typeOf(info)}`,
    `size: ${info.size} bytes`,
    `modified: ${info.mtime.toISOString()}`,
    `created: ${info.birthtime.toISOString()}`,
    `accessed: ${info.atime.toISOString()}`,
    `permissions: ${formatPermissions(info.mode)}`,
  ];
  if (isLink) lines.splice(1, 0, `symbolic link: ${input} -> ${target.display}`);
  return lines.join('\n');
}
