/**
 * BM25 ranking of a tool catalogue (MiniSearch), built once per catalogue: the host hands out
 * the same array until a server's tools change. Words are stemmed on both sides (`clicking`
 * finds `click`), and a longer word also finds the words it starts (`screenshots`, `navig…`).
 * A request also looks, at a lower weight, for the words equivalent to its own, the tools' words
 * for the intents it names (intent-lexicon.ts) and the parameter its values are for (query-expansion.ts);
 * the words of its paths and file names are names, not what it asks for, and are not looked for.
 */
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { ToolSpec } from '../../vocabulary/types.js';
import { intentWords } from './intent-lexicon.js';
import { equivalents, valueHints, withoutPaths } from './query-expansion.js';
import { identifierWords, type ToolDocument, toolDocument } from './tool-text.js';

const FIELDS: (keyof ToolDocument)[] = ['server', 'name', 'title', 'description', 'parameters', 'nested'];
/**
 * A word in a tool's name says more about what it does than one in a paragraph of description; a
 * field inside a parameter (Notion's `parent.database_id`) says less than a parameter of its own.
 */
const FIELD_BOOST: Partial<Record<keyof ToolDocument, number>> = { name: 3, server: 2, title: 2, nested: 0.5 };
/**
 * What an equivalent word or a value's parameter counts beside the user's own word: it may name
 * a neighbouring action or thing. Half was best on the odd lines of the bench corpus (0.3–0.7 alike).
 */
const EXPANSION_WEIGHT = 0.5;
/** Words too common in requests and descriptions alike to say which tool is meant. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do for from has have how i if in into is it its me my of on or our please ' +
    'so than that the their them then there these this to us was we what when where which who will with you your'
  ).split(' '),
);

/**
 * Quantifiers say how much of something, not what: in "tell me everything you know" the word is no
 * tool's, though a server may be named by it (server-everything). Followed by "server" it names one.
 */
const QUANTIFIERS = /\b(?:everything|anything|something|nothing)\b(?!\s+server)/giu;

function tokenize(text: string): string[] {
  return identifierWords(text).split(' ');
}

function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  return word.length < 2 || STOP_WORDS.has(word) ? null : stemmer(word);
}

export class LexicalIndex {
  private readonly index = new MiniSearch<ToolDocument>({
    fields: FIELDS,
    tokenize,
    processTerm,
    searchOptions: {
      boost: FIELD_BOOST,
      combineWith: 'OR',
      // Prefix matches only for words long enough to say something; they score below an exact match.
      prefix: (term) => term.length >= 4,
      weights: { fuzzy: 0.3, prefix: 0.4 },
    },
  });

  /** Every term some tool is found by (as `processTerm` makes them). */
  private readonly vocabulary = new Set<string>();

  constructor(tools: ToolSpec[]) {
    const documents = tools.map(toolDocument);
    this.index.addAll(documents);
    for (const document of documents)
      for (const field of FIELDS) for (const word of tokenize(document[field])) this.addToVocabulary(word);
  }

  private addToVocabulary(word: string): void {
    const term = processTerm(word);
    if (term !== null) this.vocabulary.add(term);
  }

  /**
   * Each matching tool's score for `query`, by `server.tool`; tools that match nothing are absent.
   * `widen`: also look for equivalent words and value hints; for the message being answered, which
   * says the action wanted. Earlier messages set the topic; widened, their words only add noise.
   */
  scores(request: string, widen = true): Map<string, number> {
    const query = withoutPaths(request).replace(QUANTIFIERS, ' ');
    if (!widen) return new Map(this.index.search(query).map((hit) => [String(hit.id), hit.score]));
    const words = tokenize(query);
    const terms = words.flatMap((word) => processTerm(word) ?? []);
    const hints = valueHints(request).flatMap((word) => processTerm(word) ?? []);
    const toolTerm = (term: string): boolean => this.vocabulary.has(term);
    const unused = (word: string): boolean => !toolTerm(processTerm(word) ?? word);
    // A word no tool uses ("reply", "remember") can only be found by its equivalents ("comment") or
    // the tools' words for its intent ("memory"): they stand for it in full.
    const standIns = [
      ...equivalents(
        terms.filter((term) => !this.vocabulary.has(term)),
        processTerm,
      ),
      ...intentWords(words.filter(unused), processTerm, toolTerm),
    ].filter((term) => !terms.includes(term));
    const added = [
      ...new Set([...equivalents(terms, processTerm), ...intentWords(words, processTerm, toolTerm), ...hints]),
    ].filter((term) => !terms.includes(term) && !standIns.includes(term));
    // One search, so a tool matching the user's word and an equivalent counts as matching more of the request.
    const hits = this.index.search({
      combineWith: 'OR',
      queries: [
        query,
        // Already processed: the added words are index terms, stemmed once.
        { queries: [added.join(' ')], processTerm: (term) => term, boostTerm: () => EXPANSION_WEIGHT },
        { queries: [standIns.join(' ')], processTerm: (term) => term },
      ],
    });
    return new Map(hits.map((hit) => [String(hit.id), hit.score]));
  }
}

const built = new WeakMap<ToolSpec[], LexicalIndex>();

export function lexicalIndex(tools: ToolSpec[]): LexicalIndex {
  let index = built.get(tools);
  if (!index) built.set(tools, (index = new LexicalIndex(tools)));
  return index;
}
