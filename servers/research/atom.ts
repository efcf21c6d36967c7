/**
 * arXiv's Atom feed → `Paper[]`. Parsing is strict about what it trusts: the XML must be
 * well formed, the root must be `<feed>`, and arXiv's own error entries become errors, not papers.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import * as z from 'zod';

export const PaperSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  authors: z.array(z.string()),
  summary: z.string(),
  published: z.string(),
  pdf_url: z.string(),
  categories: z.array(z.string()),
});
export type Paper = z.infer<typeof PaperSchema>;

/** The response was not a usable Atom feed, or arXiv answered with an error entry. */
export class AtomParseError extends Error {}

// Tags that may repeat; the parser must give arrays even when a feed has only one.
const REPEATED_TAGS = new Set(['entry', 'author', 'link', 'category']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // `arxiv:primary_category` and `opensearch:totalResults` are read by local name.
  removeNSPrefix: true,
  // Titles such as "2024" must stay strings; ids such as 1111.2011 must not become numbers.
  parseTagValue: false,
  isArray: (tagName) => REPEATED_TAGS.has(tagName),
});

/** Element text: a bare string, or `#text` when the element also has attributes. */
const Text = z
  .union([z.string(), z.object({ '#text': z.string().optional() }).loose()])
  .transform((node) => (typeof node === 'string' ? node : (node['#text'] ?? '')));

const Link = z
  .object({ '@_href': z.string(), '@_title': z.string().optional(), '@_type': z.string().optional() })
  .loose();

const Entry = z
  .object({
    id: Text,
    title: Text.default(''),
    summary: Text.default(''),
    published: Text.default(''),
    author: z.array(z.object({ name: Text }).loose()).default([]),
    link: z.array(Link).default([]),
    category: z.array(z.object({ '@_term': z.string() }).loose()).default([]),
  })
  .loose();
type Entry = z.infer<typeof Entry>;

// An empty `<feed/>` parses as "", which is a feed with no entries.
const Feed = z
  .object({
    feed: z.preprocess((node) => (node === '' ? {} : node), z.object({ entry: z.array(Entry).default([]) }).loose()),
  })
  .loose();

/**
 * The feed's papers, best match first: at most `limit` of them (a feed may hold more than it was
 * asked for), each id once (the first entry for an id wins).
 */
export function parseAtomFeed(xml: string, limit = Number.POSITIVE_INFINITY): Paper[] {
  const entries = parseEntries(xml);
  const failure = entries.find(isErrorEntry);
  if (failure) throw new AtomParseError(`arXiv rejected the query: ${oneLine(failure.summary) || 'no reason given'}`);
  const papers = new Map<string, Paper>();
  for (const entry of entries) {
    if (papers.size >= limit) break;
    const paper = toPaper(entry);
    if (!papers.has(paper.id)) papers.set(paper.id, paper);
  }
  return [...papers.values()];
}

/** arXiv's explanation inside an error response body (e.g. a 400), if the body carries one. */
export function arxivErrorDetail(body: string): string | undefined {
  try {
    const failure = parseEntries(body).find(isErrorEntry);
    return failure ? oneLine(failure.summary) || undefined : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The canonical short form of an arXiv id as people and models write it:
 * "arXiv:2301.01234", "https://arxiv.org/abs/2301.01234v2" and "2301.01234v2" all work.
 */
export function normalisePaperId(input: string): string {
  return input
    .trim()
    .replace(/^arxiv:\s*/i, '')
    .replace(/^https?:\/\/(?:export\.)?arxiv\.org\/(?:abs|pdf)\//i, '')
    .replace(/\.pdf$/i, '');
}

/** The id without its version suffix: "2301.01234v2" → "2301.01234". */
export function unversionedId(id: string): string {
  return id.replace(/v\d+$/, '');
}

function parseEntries(xml: string): Entry[] {
  const validation = XMLValidator.validate(xml);
  if (validation !== true) {
    const { line, msg } = validation.err;
    throw new AtomParseError(`arXiv returned a response that is not valid XML (line ${line}: ${msg})`);
  }
  const parsed: unknown = parser.parse(xml);
  const feed = Feed.safeParse(parsed);
  if (!feed.success) {
    const root =
      parsed !== null && typeof parsed === 'object'
        ? Object.keys(parsed).find((key) => !key.startsWith('?'))
        : undefined;
    throw new AtomParseError(
      `arXiv returned XML that is not an Atom feed of papers (root element: <${root ?? 'none'}>)`,
    );
  }
  return feed.data.feed.entry;
}

function isErrorEntry(entry: Entry): boolean {
  return /arxiv\.org\/api\/errors/.test(entry.id);
}

function toPaper(entry: Entry): Paper {
  const id = normalisePaperId(entry.id);
  const pdf = entry.link.find((link) => link['@_title'] === 'pdf' || link['@_type'] === 'application/pdf');
  return {
    id,
    title: oneLine(entry.title),
    authors: entry.author.map((author) => oneLine(author.name)).filter((name) => name !== ''),
    summary: oneLine(entry.summary),
    published: entry.published.trim(),
    pdf_url: pdf?.['@_href'] ?? `https://arxiv.org/pdf/${id}`,
    categories: entry.category.map((category) => category['@_term']),
  };
}

// arXiv hard-wraps titles and abstracts at ~80 columns; the line breaks carry no meaning.
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
