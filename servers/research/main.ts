/**
 * stdio entry of the research server. `ARXIV_API_URL` (default: the public arXiv API) and
 * `PAPERS_DIR` (default: `papers` in the working directory) come from the environment.
 */
import path from 'node:path';
import { runStdio } from '../shared/run-stdio.js';
import { createServer } from './server.js';

const DEFAULT_ARXIV_API_URL = 'https://export.arxiv.org/api/query';
/** Same meaning as the CLI's exit code for bad usage or configuration. */
const EXIT_USAGE = 2;

// An empty variable (e.g. `ARXIV_API_URL=` in .env) means "not set", not "no URL".
const arxivApiUrl = process.env.ARXIV_API_URL || DEFAULT_ARXIV_API_URL;
const papersDir = path.resolve(process.env.PAPERS_DIR || 'papers');

if (!URL.canParse(arxivApiUrl) || !/^https?:$/.test(new URL(arxivApiUrl).protocol)) {
  process.stderr.write(`research server: ARXIV_API_URL must be an http(s) URL, got "${arxivApiUrl}"\n`);
  process.exit(EXIT_USAGE);
}

await runStdio(createServer({ papersDir, arxivApiUrl }), 'research');
