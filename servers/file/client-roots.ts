/**
 * Roots from the MCP client, for a file server started without any: asked for with
 * `roots/list` once the session is initialised and again on every `roots/list_changed`.
 * Each root must be a `file://` URI of an existing directory; it is then opened exactly like
 * a command-line root (realpath, directory check), and anything else is ignored with a warning.
 */
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { RootState, RootsOutcome } from './root-state.js';
import { openRoots, RootError, Sandbox } from './sandbox.js';

/**
 * `roots/list`'s result with any URI string: the SDK's own schema (`listRoots()`) rejects the whole
 * list for one root that is not file://, and one odd root should cost only itself.
 */
const LENIENT_ROOTS_RESULT = z.object({ roots: z.array(z.object({ uri: z.string() })) });

/** A client that does not answer `roots/list` soon must not hold tool calls (which wait for it) for long. */
const LIST_ROOTS_TIMEOUT_MS = 10_000;

export const ROOTS_NOT_YET_RECEIVED =
  "it was started without a directory argument and has not received the client's roots";

const NO_CLIENT_ROOTS = 'it was started without a directory argument, and the MCP client does not offer roots';

/** Wires `server` to keep `state` on the client's roots for the whole session. */
export function followClientRoots(server: Server, state: RootState, log: (line: string) => void): void {
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots === undefined) {
      log('file server: no root directory: no directory argument, and the client does not offer roots');
      state.set({ missing: NO_CLIENT_ROOTS });
      return;
    }
    const refresh = (): void => state.update(() => loadClientRoots(server, log));
    server.setNotificationHandler(RootsListChangedNotificationSchema, refresh);
    refresh();
  };
}

async function loadClientRoots(server: Server, log: (line: string) => void): Promise<RootsOutcome> {
  let roots: ReadonlyArray<{ uri: string }>;
  try {
    ({ roots } = await server.request({ method: 'roots/list' }, LENIENT_ROOTS_RESULT, {
      timeout: LIST_ROOTS_TIMEOUT_MS,
    }));
  } catch (error) {
    const reason = `asking the client for its roots failed (${errorText(error)})`;
    log(`file server: ${reason}`);
    return { missing: reason };
  }
  const usable: string[] = [];
  const ignored: string[] = [];
  for (const root of roots) {
    try {
      usable.push(usableRootPath(root.uri));
    } catch (error) {
      ignored.push(`${root.uri}: ${errorText(error)}`);
      log(`file server: ignoring the client's root ${root.uri}: ${errorText(error)}`);
    }
  }
  if (usable.length === 0) {
    return {
      missing:
        ignored.length === 0
          ? 'the MCP client offers no roots'
          : `none of the roots the MCP client offers is a usable directory (${ignored.join('; ')})`,
    };
  }
  try {
    const sandbox = new Sandbox(usable);
    log(`file server: root directories from the client: ${sandbox.roots.join(', ')}`);
    return { sandbox };
  } catch (error) {
    // A root removed between its check above and here: the same answer as if it had been missing then.
    log(`file server: ${errorText(error)}`);
    return { missing: `the roots the MCP client offers changed while being opened (${errorText(error)})` };
  }
}

/** The local path of a root URI that names an existing directory, or a `RootError` saying why not. */
function usableRootPath(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new RootError('not a URI');
  }
  if (url.protocol !== 'file:') throw new RootError('not a file:// URI');
  let local: string;
  try {
    // Refuses a remote host (file://server/share) and encoded slashes, which name no local directory.
    local = fileURLToPath(url);
  } catch (error) {
    throw new RootError(`not a local path (${errorText(error)})`);
  }
  // The same checks as for a command-line root: it must exist and, links followed, be a directory.
  openRoots([local]);
  return local;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
