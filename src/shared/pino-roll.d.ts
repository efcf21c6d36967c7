/**
 * pino-roll ships no types: the part of its API mcp-chat uses. `build` resolves to a SonicBoom
 * stream (pino's own file stream); only what log-rotation.ts touches is declared.
 */
declare module 'pino-roll' {
  import type { EventEmitter } from 'node:events';

  export interface RollOptions {
    /** Base path: files are written as `<name>.<n>.<ext>` beside it. */
    file: string;
    /** A plain number is megabytes. */
    size?: number | string;
    /** `count` files are kept, the one being written included, when `removeOtherLogFiles` is set. */
    limit?: { count: number; removeOtherLogFiles?: boolean };
    /** SonicBoom options, passed through. */
    sync?: boolean;
    mkdir?: boolean;
    /** The mode a new file is created with (an existing file keeps its own). */
    mode?: number;
  }

  export interface RollStream extends EventEmitter {
    /** The numbered file being written now. */
    readonly file: string;
    /** Its descriptor. */
    readonly fd: number;
    write(chunk: string): boolean;
    flushSync(): void;
    end(): void;
  }

  export default function build(options: RollOptions): Promise<RollStream>;
}
