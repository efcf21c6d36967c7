/** How a typed line becomes a turn's input: prompt lines, their arguments, and @mentions of resources. */
import { describe, expect, it } from 'vitest';
import type { PromptInfo } from '../../src/vocabulary/offers.js';
import type { ChatMessage } from '../../src/vocabulary/types.js';
import { type OfferHost, resolveTurnInput } from '../../src/session/turn-input.js';

const weather: PromptInfo = {
  server: 'everything',
  name: 'args-prompt',
  arguments: [
    { name: 'city', description: 'Name of the city', required: true },
    { name: 'state', required: false },
  ],
};

/** A host that records what it is asked; `docs` are its resources. */
function offerHost(prompts: PromptInfo[], docs: Record<string, string> = {}) {
  const asked: { server: string; name: string; args: Record<string, string> }[] = [];
  const host: OfferHost = {
    listPrompts: async () => prompts,
    getPrompt: async (server, name, args): Promise<ChatMessage[]> => {
      asked.push({ server, name, args });
      return [{ role: 'user', content: `weather in ${args.city ?? '?'}` }];
    },
    readResource: async (server, uri) => {
      const text = docs[`${server}:${uri}`];
      if (text === undefined) throw new Error(`Resource ${uri} not found`);
      return text;
    },
  };
  return { host, asked };
}

describe('resolveTurnInput', () => {
  it('runs /server:prompt with key=value arguments, quoted ones whole', async () => {
    const { host, asked } = offerHost([weather]);
    const input = await resolveTurnInput(`/everything:args-prompt city="São Paulo" state='SP'`, host, ['everything']);
    expect(input).toEqual({
      type: 'messages',
      messages: [{ role: 'user', content: 'weather in São Paulo' }],
      notices: [],
      prompt: { server: 'everything', name: 'args-prompt' },
    });
    expect(asked).toEqual([{ server: 'everything', name: 'args-prompt', args: { city: 'São Paulo', state: 'SP' } }]);
  });

  it.each([
    ['/everything:args-prompt Lisbon', 'prompt arguments are key=value, not "Lisbon"', 'usage'],
    ['/everything:args-prompt city=Lisbon country=PT', 'everything:args-prompt has no argument "country"', 'usage'],
    ['/everything:args-prompt state=SP', 'everything:args-prompt needs city (Name of the city)', 'missing-arguments'],
    ['/everything:no-such', 'no prompt "no-such" on server everything', 'usage'],
  ])('%s is a usage error: %s', async (line, message, kind) => {
    const { host, asked } = offerHost([weather]);
    expect(await resolveTurnInput(line, host, ['everything'])).toMatchObject({ type: 'error', message, kind });
    expect(asked).toEqual([]);
  });

  it('a missing required argument names what to ask for; answers given apart from the line complete it', async () => {
    const { host, asked } = offerHost([weather]);
    expect(await resolveTurnInput('/args-prompt state=SP', host, ['everything'])).toMatchObject({
      type: 'error',
      missing: { prompt: 'everything:args-prompt', arguments: [{ name: 'city', required: true }] },
    });
    const input = await resolveTurnInput('/args-prompt state=SP', host, ['everything'], { city: 'Porto Alegre' });
    expect(input).toMatchObject({ type: 'messages', messages: [{ role: 'user', content: 'weather in Porto Alegre' }] });
    expect(asked).toEqual([{ server: 'everything', name: 'args-prompt', args: { state: 'SP', city: 'Porto Alegre' } }]);
  });

  it('a prompt name two servers share must be named with its server', async () => {
    const { host } = offerHost([weather, { ...weather, server: 'other' }]);
    const input = await resolveTurnInput('/args-prompt city=Rome', host, ['everything', 'other']);
    expect(input).toMatchObject({
      type: 'error',
      message: 'more than one server has a prompt "args-prompt"',
      hint: 'Name one: /everything:args-prompt, /other:args-prompt',
    });
  });

  it('a /word that is no prompt, and an @ that names no configured server, stay the message as typed', async () => {
    const { host } = offerHost([weather]);
    for (const line of ['/shrug it happens', 'mail me at ana@example.com:8080 or @nobody:thing']) {
      expect(await resolveTurnInput(line, host, ['everything'])).toEqual({
        type: 'messages',
        messages: [{ role: 'user', content: line }],
        notices: [],
      });
    }
  });

  it("attaches each mentioned resource once; the sentence's punctuation is not part of the URI", async () => {
    const { host } = offerHost([], { 'docs:file:///a.md': 'AAA', 'docs:file:///b.md': 'BBB' });
    const line = 'Compare @docs:file:///a.md, @docs:file:///b.md. Then @docs:file:///a.md again!';
    const input = await resolveTurnInput(line, host, ['docs']);
    expect(input).toEqual({
      type: 'messages',
      messages: [
        {
          role: 'user',
          content: `${line}\n\nResource @docs:file:///a.md:\nAAA\n\nResource @docs:file:///b.md:\nBBB`,
        },
      ],
      notices: ['attached @docs:file:///a.md (3 characters)', 'attached @docs:file:///b.md (3 characters)'],
    });
  });

  it('a huge resource is cut, and says so; more than five mentions is refused', async () => {
    const { host } = offerHost([], { 'docs:big': 'x'.repeat(50_000) });
    const input = await resolveTurnInput('read @docs:big', host, ['docs']);
    expect(input.type === 'messages' && input.messages[0]?.content.endsWith('[… cut: 20000 of 50000 characters]')).toBe(
      true,
    );
    const many = Array.from({ length: 6 }, (_, index) => `@docs:r${index}`).join(' ');
    expect(await resolveTurnInput(many, host, ['docs'])).toMatchObject({ type: 'error', kind: 'usage' });
  });
});
