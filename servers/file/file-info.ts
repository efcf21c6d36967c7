/**
 * Metadata of one path (type, size, times, permissions). The target's own metadata is
 * reported; when the path given was a link inside the roots, that is said too.
 */
import type { Stats } from 'node:fs';
import fsp from 'node:fs/promises';
import type { SandboxPath } from './sandbox.js';

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

export async function fileInfo(target: SandboxPath, input: string): Promise<string> {
  const info = await fsp.stat(target.real);
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
