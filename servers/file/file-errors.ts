/**
 * Expected failures of the file tools, as text a model can act on. Refusals and
 * filesystem errors become `isError` results; anything else is a bug and is rethrown.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorResult } from '../shared/tool-results.js';

/** A refusal or an expected failure; its message is shown to the model as is. */
export class FileToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileToolError';
  }
}

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

/** The errno code of a filesystem error (`ENOENT`…), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  return isErrnoException(error) ? error.code : undefined;
}

/** What each common errno means for a model, with what to do next. */
const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'No such file or directory',
  ENOTDIR: 'A parent of this path is not a directory',
  EISDIR: 'This path is a directory; use list_directory to see its entries',
  EACCES: 'Permission denied by the operating system',
  EPERM: 'Operation not permitted by the operating system',
  EEXIST: 'Something already exists at this path',
  ENOTEMPTY: 'Directory is not empty',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'Path name is too long',
  ENOSPC: 'No space left on the device',
  EROFS: 'The file system is read-only',
};

/** Runs one tool body, turning expected failures into error results. */
export async function guard(displayPath: string, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof FileToolError) return errorResult(error.message);
    if (isErrnoException(error) && error.code !== undefined && error.code in ERRNO_TEXT) {
      return errorResult(`${ERRNO_TEXT[error.code]}: ${displayPath}`);
    }
    throw error;
  }
}
