/**
 * stdio entry of the calculator server: `node dist/servers/calculator/main.js`.
 */
import { runStdio } from '../shared/run-stdio.js';
import { createServer } from './server.js';

await runStdio(createServer(), 'calculator');
