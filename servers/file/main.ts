/**
 * stdio entry of the file server: `node dist/servers/file/main.js [<root>…]`. Without a root,
 * the roots are the MCP client's (never the working directory: a server that silently serves
 * wherever it was started could hand out the wrong tree). A missing root is a usage error, exit 2.
 */
import { runStdio } from '../shared/run-stdio.js';
import { RootError } from './sandbox.js';
import { createServer } from './server.js';

/** Same meaning as the CLI's exit code for bad usage. */
const EXIT_USAGE = 2;

try {
  await runStdio(createServer({ roots: process.argv.slice(2) }), 'file');
} catch (error) {
  if (!(error instanceof RootError)) throw error;
  process.stderr.write(`file server: ${error.message}\nusage: main.js [<root>…] (none: the client's roots)\n`);
  process.exit(EXIT_USAGE);
}
