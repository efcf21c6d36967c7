/**
 * What the file tools tell the model about where paths start. It names the roots when they
 * are known; roots still to come from the client are described without a name, and the tools
 * are described again (with a tools/list_changed) once the client's roots are known.
 */
import * as z from 'zod';
import type { Sandbox } from './sandbox.js';

export interface ToolTexts {
  /** The sentence every description ends with: where paths start and what is allowed. */
  readonly where: string;
  readonly pathArg: z.ZodString;
}

const FROM_CLIENT =
  'Paths are relative to the root directory, the first of the directories the MCP client offers as roots; ' +
  'absolute paths are accepted only inside those roots. Use "." for the root itself.';

export function toolTexts(sandbox: Sandbox | undefined): ToolTexts {
  const where =
    sandbox === undefined
      ? FROM_CLIENT
      : `Paths are relative to the root directory ${sandbox.primaryRoot}; absolute paths are accepted only inside ` +
        `the allowed roots (${sandbox.roots.join(', ')}). Use "." for the root itself.`;
  return { where, pathArg: z.string().describe(`File or directory path, e.g. "src/index.ts". ${where}`) };
}

/** The server's `instructions`, sent once at initialisation: before the client's roots are known. */
export function serverInstructions(sandbox: Sandbox | undefined): string {
  const inside = sandbox === undefined ? 'the directories the MCP client offers as roots' : sandbox.roots.join(', ');
  return `Reads and writes files inside ${inside}. ${toolTexts(sandbox).where}`;
}
