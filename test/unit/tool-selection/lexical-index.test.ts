/**
 * Ranking by words: a request finds tools by the words equivalent to its own, by the form of its
 * values, and by the fields inside a tool's parameters.
 */
import { describe, expect, it } from 'vitest';
import { LexicalIndex } from '../../../src/engine/tool-selection/lexical-index.js';
import { manyToolsCatalogue } from '../../helpers/many-tools.js';

const index = new LexicalIndex(manyToolsCatalogue());

/** Position (1 = best) of `name` for `query`; 0 when it does not match at all. */
function rank(query: string, name: string): number {
  const ordered = [...index.scores(query)].sort((a, b) => b[1] - a[1]);
  return ordered.findIndex(([id]) => id === name) + 1;
}

describe('LexicalIndex', () => {
  it('finds a tool by a verb equivalent to the one in its name: forget → delete, grab a picture → screenshot', () => {
    expect(rank('forget Jake', 'memory.delete_entities')).toBeGreaterThan(0);
    expect(rank('forget Jake', 'memory.delete_entities')).toBeLessThanOrEqual(5);
    expect(rank('grab a picture of the page', 'playwright.browser_take_screenshot')).toBeLessThanOrEqual(2);
    expect(rank('shut the browser', 'playwright.browser_close')).toBe(1);
  });

  it('unwidened (for earlier messages), a request finds tools by its own words only', () => {
    expect(index.scores('forget Jake').has('memory.delete_entities')).toBe(true);
    expect(index.scores('forget Jake', false).has('memory.delete_entities')).toBe(false);
    expect(index.scores('log into staging.acme.io', false).has('playwright.browser_navigate')).toBe(false);
  });

  it('the words of a path are names, not what the request is for; the path still says a file is meant', () => {
    const request = 'in ~/website/page-colors.html replace Foo with Bar';
    expect(rank(request, 'filesystem.edit_file')).toBeLessThan(
      rank(request, 'playwright.browser_navigate') || Infinity,
    );
    expect(rank(request, 'filesystem.edit_file')).toBeLessThanOrEqual(3);
    expect(rank(request, 'playwright.browser_emulate_media')).toBe(0);
  });

  it("the user's own word counts more than its equivalent, where some tool uses it", () => {
    const own = index.scores('edit the notes file');
    const equivalent = index.scores('change the notes file');
    expect(own.get('filesystem.edit_file')).toBeGreaterThan(equivalent.get('filesystem.edit_file') ?? 0);
  });

  it('a word no tool uses stands for its equivalents in full: reply → comment', () => {
    const reply = index.scores('reply on the launch page').get('notion.API-create-a-comment');
    const comment = index.scores('comment on the launch page').get('notion.API-create-a-comment');
    expect(reply).toBeGreaterThan(0);
    expect(reply).toBeCloseTo(comment ?? 0, 6);
  });

  it('finds a tool by another name for the thing it works on: popup → dialog, db → database', () => {
    expect(rank('a popup asks me to confirm, say ok', 'playwright.browser_handle_dialog')).toBe(1);
    expect(rank('what is in my reading list db', 'notion.API-retrieve-a-database')).toBe(1);
  });

  it("finds a tool by a field inside a parameter: Notion's page parent takes a `database_id`", () => {
    expect(rank('add a page to the database', 'notion.API-post-page')).toBe(1);
    expect(index.scores('database', false).has('notion.API-post-page')).toBe(true);
  });

  it('a web address finds the tools that take a url; a file name, those that take a path', () => {
    expect(rank('log into staging', 'playwright.browser_navigate')).toBe(0);
    expect(rank('log into staging.acme.io', 'playwright.browser_navigate')).toBeGreaterThan(0);
    // Behind the tools named for logging, and server-everything's that takes a url to elicit.
    expect(rank('log into staging.acme.io', 'playwright.browser_navigate')).toBeLessThanOrEqual(4);
    expect(index.scores('how old is it?').has('filesystem.get_file_info')).toBe(false);
    expect(index.scores('how old is data/export.csv?').has('filesystem.get_file_info')).toBe(true);
  });

  it('code quoted in a request finds the tools that take code', () => {
    expect(rank('what does the title return?', 'playwright.browser_evaluate')).toBe(0);
    expect(rank('what does document.title return?', 'playwright.browser_evaluate')).toBeGreaterThan(0);
  });

  it('two numbers find the tools that take numbers', () => {
    expect(rank('add three and four', 'everything.get-sum')).toBe(0);
    expect(rank('add 3 and 4', 'everything.get-sum')).toBeGreaterThan(0);
    expect(rank('add 3 and 4', 'calculator.evaluate')).toBeGreaterThan(0);
  });

  it('a quantifier is no server\'s name, unless it is called a server: "everything you know"', () => {
    const top = [...index.scores('tell me everything you know about me')].sort((a, b) => b[1] - a[1]).slice(0, 5);
    expect(top.filter(([id]) => id.startsWith('everything.')).length).toBeLessThanOrEqual(1);
    expect(rank('tell me everything you know about me', 'memory.read_graph')).toBeLessThanOrEqual(10);
    expect(rank('use the everything server to echo hi', 'everything.echo')).toBe(1);
  });
});
