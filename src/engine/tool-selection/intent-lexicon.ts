/**
 * Everyday words for what people want of MCP tools, and the words such tools are named for: a
 * user "keeps something in mind" where a server keeps `memory` as `entities`, asks which account
 * they are "logged in" as where a tool returns its token's `self` `user`, "heads over" to a site a
 * tool `navigate`s to. One way only: a tool's own word does not stand for the user's. Written for
 * intents common to MCP servers, not for one product's vocabulary. A phrase (`take me to`) names an
 * intent its words alone do not: "take" is a screenshot's word, "take me to" a page's.
 */

/**
 * Each line: the user's words (or phrases, their words joined by `_`), as they write them, then the
 * tools' words they stand for.
 */
const INTENTS: [string, string][] = [
  ['pull', 'open'],
  ['take_me_to get_me_to get_me_onto pull_up bring_up swing_by hop_over front_page go_to', 'navigate url browser'],
  ['repeat parrot', 'echo'],
  ['plus minus times divided multiplied', 'sum math expression'],
  ['team teammate teammates colleague colleagues coworker coworkers', 'users'],
  ['errors complaining complain warnings crash crashing throwing', 'console messages'],
  ['punch', 'type text'],
  ['sort sorted filter filtered due', 'query'],
  ['phone mobile tablet', 'resize window'],
  ['api_calls xhr ajax', 'network requests'],
  ['get_rid_of', 'delete remove'],
  ['leave_a_note', 'comment'],
  ['paragraph paragraphs', 'block'],
  [
    'remember memorize memorise remind recall mind jot note forget on_file file_away file_this_away',
    'memory entity observation',
  ],
  ['whoami myself username login logged signed identity credentials authenticated', 'self user account token'],
  ['head visit load surf browse site website webpage homepage', 'navigate url browser'],
  ['tick untick checkbox', 'click'],
  ['reach permitted access', 'allowed access'],
  ['disk drive storage', 'directory file'],
  ['literature study studies science scientific journal', 'paper arxiv'],
  ['hog hogging room heavy', 'size'],
  ['fix correct tweak typo', 'edit update'],
  ['feedback', 'comment'],
  ['sure', 'dialog confirmation'],
  ['shrink', 'compress gzip'],
  ['until loading', 'wait'],
  ['documents desktop downloads', 'directory'],
  ['mouse mouseover point_at', 'hover'],
  ['test testing fake dummy mock sandbox', 'simulated demonstrates'],
  ['connected_to connected_as hooked_up integration', 'self user token'],
  ['on_screen right_now at_the_moment showing this_page have_open got_open', 'current browser'],
  ['doc docs', 'page'],
];

interface Intents {
  /** The tools' words, by the user's word as written. */
  written: Map<string, string[]>;
  /** The tools' words, by the user's phrase: its words, lower case, joined by spaces. */
  phrases: Map<string, string[]>;
  /** The same, by the user's word as `normalize` makes it: "remembered" is "remember". */
  normalized: Map<string, string[]>;
}

let built: { normalize: (word: string) => string | null; intents: Intents } | undefined;

/** The tools' words for each of the user's words, worked out once per normalizer. */
function intentsFor(normalize: (word: string) => string | null): Intents {
  if (built?.normalize !== normalize) {
    const intents: Intents = { written: new Map(), phrases: new Map(), normalized: new Map() };
    const add = (map: Map<string, string[]>, key: string, words: string[]): void => {
      map.set(key, [...new Set([...(map.get(key) ?? []), ...words])]);
    };
    for (const [said, meant] of INTENTS) {
      const words = [...new Set(meant.split(' ').flatMap((word) => normalize(word) ?? []))];
      for (const word of said.split(' ')) {
        if (word.includes('_')) {
          add(intents.phrases, word.replaceAll('_', ' '), words);
          continue;
        }
        add(intents.written, word, words);
        const key = normalize(word);
        if (key !== null) add(intents.normalized, key, words);
      }
    }
    built = { normalize, intents };
  }
  return built.intents;
}

/**
 * The tools' words (as `normalize` makes them) the intents among `words` (as the user wrote them)
 * stand for. A word is matched as written, or in another form of it when that form is not one of
 * the tools' own terms (`toolTerm`): "logged" names an intent, the `log` it stems to is a console's.
 */
export function intentWords(
  words: string[],
  normalize: (word: string) => string | null,
  toolTerm: (term: string) => boolean = () => false,
): string[] {
  const intents = intentsFor(normalize);
  const text = ` ${words.join(' ').toLowerCase()} `;
  const phrased = [...intents.phrases].flatMap(([phrase, meant]) => (text.includes(` ${phrase} `) ? meant : []));
  return [
    ...new Set([
      ...phrased,
      ...words.flatMap((word) => {
        const written = intents.written.get(word.toLowerCase());
        if (written) return written;
        const term = normalize(word);
        return term === null || toolTerm(term) ? [] : (intents.normalized.get(term) ?? []);
      }),
    ]),
  ];
}
