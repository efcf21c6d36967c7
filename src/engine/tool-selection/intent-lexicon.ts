/**
 * Everyday words for what people want of MCP tools, and the words such tools are named for: a
 * user "keeps something in mind" where a server keeps `memory` as `entities`, asks which account
 * they are "logged in" as where a tool returns its token's `self` `user`, "heads over" to a site a
 * tool `navigate`s to. One way only: a tool's own word does not stand for the user's. Written for
 * intents common to MCP servers, not for one product's vocabulary.
 */

/** Each line: the user's words, as they write them, then the tools' words they stand for. */
const INTENTS: [string, string][] = [
  ['pull', 'open'],
  ['remember memorize memorise remind recall mind jot note', 'memory entity observation'],
  ['whoami myself login logged signed identity credentials authenticated', 'self user account token'],
  ['head visit load surf site website webpage homepage', 'navigate url browser'],
  ['tick untick checkbox', 'click'],
  ['reach permitted access', 'allowed access'],
  ['disk drive storage', 'directory file'],
  ['literature study studies science scientific journal', 'paper arxiv'],
  ['hog hogging room heavy', 'size'],
  ['fix correct tweak typo', 'edit update'],
  ['feedback', 'comment'],
  ['sure', 'dialog confirmation'],
  ['shrink', 'compress gzip'],
];

let normalized: { normalize: (word: string) => string | null; intents: Map<string, string[]> } | undefined;

/**
 * The tools' words for each of the user's words, worked out once per normalizer. The user's words
 * are matched as written (lower case), not stemmed: "logged" is an intent, the `log` it stems to is not.
 */
function normalizedIntents(normalize: (word: string) => string | null): Map<string, string[]> {
  if (normalized?.normalize !== normalize) {
    const intents = new Map<string, string[]>();
    for (const [said, meant] of INTENTS) {
      const words = [...new Set(meant.split(' ').flatMap((word) => normalize(word) ?? []))];
      for (const word of said.split(' ')) intents.set(word, [...new Set([...(intents.get(word) ?? []), ...words])]);
    }
    normalized = { normalize, intents };
  }
  return normalized.intents;
}

/** The tools' words (as `normalize` makes them) the intents among `words` (as the user wrote them) stand for. */
export function intentWords(words: string[], normalize: (word: string) => string | null): string[] {
  const intents = normalizedIntents(normalize);
  return [...new Set(words.flatMap((word) => intents.get(word.toLowerCase()) ?? []))];
}
