/** The ranking within a session: the servers it has used lift their best few matches, and no more. */
import { describe, expect, it } from 'vitest';
import { rankTools } from '../../../src/engine/tool-selection/tool-ranking.js';
import { displayName } from '../../../src/vocabulary/tool-naming.js';
import { manyToolsCatalogue } from '../../helpers/many-tools.js';

const catalogue = manyToolsCatalogue();

async function ranked(message: string, used: string[] = [], earlier: string[] = []): Promise<string[]> {
  return (await rankTools(catalogue, { message, earlier, used })).tools.map(displayName);
}

describe('rankTools in a session', () => {
  it('"hit enter" after typing in the browser: the browser\'s best matches move up', async () => {
    const earlier = ['open duckduckgo.com', "type 'weather in Lisbon' in the search box"];
    const alone = await ranked('hit enter', [], earlier);
    const inSession = await ranked('hit enter', ['playwright.browser_navigate', 'playwright.browser_type'], earlier);
    expect(inSession.indexOf('playwright.browser_press_key')).toBeLessThan(
      alone.indexOf('playwright.browser_press_key'),
    );
    expect(inSession.indexOf('playwright.browser_press_key')).toBeLessThan(5);
  });

  it('lifts three tools of a used server, not the used tools themselves (they are offered anyway)', async () => {
    // Nothing matches "yes": the session's server is the only guess, and only its first three move up.
    const order = await ranked('yes', ['playwright.browser_navigate']);
    expect(order.slice(0, 3).every((name) => name.startsWith('playwright.'))).toBe(true);
    expect(order[3]?.startsWith('playwright.')).toBe(false);
    expect(order.slice(0, 3)).not.toContain('playwright.browser_navigate');
  });

  it("a request for another server keeps that server's strong match first", async () => {
    const order = await ranked('take a screenshot', ['memory.read_graph', 'memory.create_entities']);
    expect(order[0]).toBe('playwright.browser_take_screenshot');
    // The three lifted memory tools come next, ahead of the request's weak matches but not far ahead.
    expect(order.slice(1, 4).every((name) => name.startsWith('memory.'))).toBe(true);
    expect(order.indexOf('playwright.browser_snapshot')).toBe(4);
  });

  it('earlier messages set the topic by their own words: their verbs are not widened', async () => {
    const { matched } = await rankTools(catalogue, { message: 'yes', earlier: ['forget Jake'] });
    expect(matched.size).toBe(0);
    const widened = await rankTools(catalogue, { message: 'forget Jake', earlier: [] });
    expect(widened.matched.size).toBeGreaterThan(0);
  });

  it('the lift does not make a tool "matched": find_tools still lists only what matches its query', async () => {
    const { matched } = await rankTools(catalogue, { message: 'yes', earlier: [], used: ['playwright.browser_click'] });
    expect(matched.size).toBe(0);
  });
});
