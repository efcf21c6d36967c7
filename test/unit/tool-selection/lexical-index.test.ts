/** Ranking by words: a request finds tools by the verbs equivalent to its own, and by the form of its values. */
import { describe, expect, it } from 'vitest';
import { LexicalIndex } from '../../../src/chat/tool-selection/lexical-index.js';
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

  it("the user's own word counts more than its equivalent", () => {
    const scores = index.scores('delete Jake');
    const equivalent = index.scores('forget Jake');
    expect(scores.get('memory.delete_entities')).toBeGreaterThan(equivalent.get('memory.delete_entities') ?? 0);
  });

  it('a web address finds the tools that take a url; a file name, those that take a path', () => {
    expect(rank('log into staging', 'playwright.browser_navigate')).toBe(0);
    expect(rank('log into staging.acme.io', 'playwright.browser_navigate')).toBeGreaterThan(0);
    expect(rank('log into staging.acme.io', 'playwright.browser_navigate')).toBeLessThanOrEqual(3);
    expect(index.scores('how big is it?').has('filesystem.get_file_info')).toBe(false);
    expect(index.scores('how big is data/export.csv?').has('filesystem.get_file_info')).toBe(true);
  });
});
