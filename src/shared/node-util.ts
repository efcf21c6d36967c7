/**
 * What mcp-chat uses of `node:util`, taken from the module Node has already loaded. An ES import of
 * `node:util` makes Node 22 and later build its ES namespace by reading every export, and so load
 * each part it otherwise loads on first use (`worker_threads`, `parseArgs`, the diff and colour
 * code): eleven of Node's own modules, about 2 ms of CPU at every start. A lint rule keeps the
 * import out of src/ and servers/.
 */
import type * as Util from 'node:util';

const util: typeof Util = process.getBuiltinModule('node:util');

export const { stripVTControlCharacters } = util;
