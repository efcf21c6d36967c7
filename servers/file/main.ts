/**
 * stdio entry of the file server: `node dist/servers/file/main.js <root> [<root>…]`
 * (default root: the current directory). A missing root is a usage error, exit 2.
 */
import { runStdio } from '../shared/run-stdio.js';
import { RootError } from './sandbox.js';
import { createServer } from './server.js';

/** Same meaning as the CLI's exit code for bad usage. */
const EXIT_USAGE = 2;

const args = process.argv.slice(2);
const roots = args.length > 0 ? args : [process.cwd()];

try {
  await runStdio(createServer({ roots }), 'file');
} catch (error) {
  if (!(error instanceof RootError)) throw error;
  process.stderr.write(`file server: ${error.message}\nusage: main.js <root> [<root>…]\n`);
  process.exit(EXIT_USAGE);
}
