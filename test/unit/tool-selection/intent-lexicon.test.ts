/**
 * Intent words: a request in everyday words ("keep in mind", "logged in as", "head over to")
 * offers the tool named for its mechanism, and one in the tool's own words still does.
 */
import { describe, expect, it } from 'vitest';
import { intentWords } from '../../../src/engine/tool-selection/intent-lexicon.js';
import { LexicalIndex } from '../../../src/engine/tool-selection/lexical-index.js';
import { manyToolsCatalogue } from '../../helpers/many-tools.js';

const asIs = (word: string): string => word;
const index = new LexicalIndex(manyToolsCatalogue());
/** Within the first few described in full, and well within any budget's offer. */
const TOP = 10;

/** Position (1 = best) of `tool` for `message`; 0 when it does not match at all. */
function rank(message: string, tool: string): number {
  const ordered = [...index.scores(message)].sort((a, b) => b[1] - a[1]);
  return ordered.findIndex(([id]) => id === tool) + 1;
}

describe('intentWords', () => {
  it("gives the tools' words for the user's", () => {
    expect(intentWords(['remember'], asIs)).toEqual(expect.arrayContaining(['memory', 'entity']));
    expect(intentWords(['signed'], asIs)).toEqual(expect.arrayContaining(['self', 'user']));
    expect(intentWords(['visit'], asIs)).toEqual(expect.arrayContaining(['navigate', 'url']));
  });

  it("is one way: a tool's own word does not stand for the user's", () => {
    expect(intentWords(['memory', 'navigate', 'self'], asIs)).toEqual([]);
  });

  it('matches the words as written: "logged" names an intent, the "log" it stems to does not', () => {
    expect(intentWords(['Logged'], asIs)).toContain('self');
    expect(intentWords(['log', 'sister', 'porto'], asIs)).toEqual([]);
  });

  it('matches a phrase only as a whole: "take me to" is a page\'s, "take a screenshot" is not', () => {
    expect(intentWords(['Take', 'me', 'to', 'the', 'front', 'page'], asIs)).toEqual(
      expect.arrayContaining(['navigate', 'url']),
    );
    expect(intentWords(['take', 'a', 'screenshot', 'to', 'me'], asIs)).toEqual([]);
    expect(intentWords(['get', 'rid', 'of', 'it'], asIs)).toEqual(expect.arrayContaining(['delete']));
    expect(intentWords(['leave', 'a', 'note'], asIs)).toEqual(expect.arrayContaining(['comment', 'memory']));
  });

  it("matches other forms of a word, unless the form is one of the tools' own terms", () => {
    const stem = (word: string): string => word.toLowerCase().replace(/(ed|ing|s)$/, '');
    expect(intentWords(['remembering', 'visited'], stem)).toEqual(expect.arrayContaining(['memory', 'navigate']));
    expect(intentWords(['visited'], stem, (term) => term === 'visit')).toEqual([]);
  });
});

describe('ranking', () => {
  it('a fake or test thing is for the tools that simulate or demonstrate: "have the test server say ping"', () => {
    const ordered = [...index.scores('have the test server say ping')].sort((a, b) => b[1] - a[1]);
    expect(ordered.slice(0, 3).every(([id]) => id.startsWith('everything.'))).toBe(true);
  });

  it('the folders of a home directory are directories', () => {
    const ordered = [...index.scores('my lease pdf is somewhere under Documents')].sort((a, b) => b[1] - a[1]);
    expect(ordered.slice(0, 3).every(([id]) => id.startsWith('filesystem.'))).toBe(true);
    expect(rank('my lease pdf is somewhere under Documents', 'filesystem.search_files')).toBeGreaterThan(0);
  });

  it("the page open right now is the browser's, not a stored page", () => {
    const browser = (message: string): number =>
      [...index.scores(message)].sort((a, b) => b[1] - a[1]).findIndex(([id]) => id.startsWith('playwright.')) + 1;
    expect(browser('read me what is on the page I have open')).toBeLessThan(browser('read me what is on the page'));
    expect(browser('what does the page say right now?')).toBeLessThan(browser('what does the page say?'));
  });

  it.each([
    // Intent words, sharing no stem with the tool.
    ["keep in mind that I'm allergic to peanuts", 'memory.create_entities'],
    ['do you recall where my brother Luis works?', 'memory.search_nodes'],
    ['am I logged in to Notion, and under what name?', 'notion.API-get-self'],
    ['who am I signed in as?', 'notion.API-get-self'],
    ["what's my username on Notion?", 'notion.API-get-self'],
    ["don't forget that my mom's birthday is May 3", 'memory.create_entities'],
    ['I remembered: Ana moved to Lisbon', 'memory.add_observations'],
    ["head over to stripe's pricing and tell me what the fee is per transaction", 'playwright.browser_navigate'],
    ['visit the BBC website', 'playwright.browser_navigate'],
    ["tick the 'remember me' checkbox", 'playwright.browser_click'],
    ['I want to get into the literature on graph neural networks for drug discovery', 'research.search_papers'],
    ['take me to the Hacker News front page', 'playwright.browser_navigate'],
    ['get me onto the login page of my bank', 'playwright.browser_navigate'],
    ["demo server: what's 5 plus 8?", 'everything.get-sum'],
    ['pull up the weather for Leeds', 'playwright.browser_navigate'],
    ["who else is in our team's workspace?", 'notion.API-get-users'],
    ["the page keeps throwing errors, what's it complaining about?", 'playwright.browser_console_messages'],
    ["punch in 'wireless earbuds' up top", 'playwright.browser_type'],
    ['only the open tasks, sorted by due date', 'notion.API-query-data-source'],
    ['get rid of the second paragraph on my Essay page', 'notion.API-delete-a-block'],
    ['hang on until the results are loaded', 'playwright.browser_wait_for'],
    ['point the mouse at the Products menu', 'playwright.browser_hover'],
    ['am I actually connected to notion?', 'notion.API-get-self'],
    ['start a new doc in Notion for the plan', 'notion.API-post-page'],
    ['file this away: Tom is a chef', 'memory.create_entities'],
    // The tool's own words, which still find it.
    ['create entities in the knowledge graph for Ana and Porto', 'memory.create_entities'],
    ["retrieve your token's bot user in Notion", 'notion.API-get-self'],
    ['navigate to https://example.com', 'playwright.browser_navigate'],
    ['click the Sign in button', 'playwright.browser_click'],
    ['list the allowed directories', 'filesystem.list_allowed_directories'],
    ['search arxiv for papers on graph neural networks', 'research.search_papers'],
  ])('"%s" ranks %s among the first few', (message, tool) => {
    expect(rank(message, tool)).toBeGreaterThan(0);
    expect(rank(message, tool)).toBeLessThanOrEqual(TOP);
  });
});
