/** Tab: the word before the cursor completed from commands, servers' prompts and resources. */
import { describe, expect, it } from 'vitest';
import type { PromptInfo, ResourceInfo } from '../../src/vocabulary/offers.js';
import { completionsFor } from '../../src/ui/command-line.js';
import { argumentAtCursor, argumentValue, completeLine } from '../../src/ui/completion.js';
import { editLine, emptyLine, type LineState } from '../../src/ui/line-editor.js';

const prompt = (server: string, name: string): PromptInfo => ({ server, name, arguments: [] });
const resource = (server: string, uri: string): ResourceInfo => ({ server, uri, name: uri });
const offers = {
  prompts: [prompt('everything', 'simple-prompt'), prompt('everything', 'args-prompt'), prompt('notes', 'args-prompt')],
  resources: [resource('everything', 'demo://doc/architecture.md'), resource('everything', 'demo://doc/arrows.md')],
};

const typed = (text: string, cursor = text.length): LineState => ({ ...emptyLine, text, cursor });
const tab = (line: LineState): LineState =>
  editLine(line, '', { tab: true }, (word) => completionsFor(word, offers)).state;

describe('Tab completion', () => {
  it('one candidate: the word is replaced and a space follows', () => {
    expect(tab(typed('/everything:sim'))).toMatchObject({ text: '/everything:simple-prompt ', cursor: 26 });
    expect(tab(typed('/sim'))).toMatchObject({ text: '/simple-prompt ' });
    expect(tab(typed('/he'))).toMatchObject({ text: '/help ' });
  });

  it('several: the word grows to what they share; a prompt name two servers have is offered only with its server', () => {
    expect(tab(typed('see @everything:demo://doc/ar'))).toMatchObject({ text: 'see @everything:demo://doc/ar' });
    expect(tab(typed('see @everything:demo://doc/arc'))).toMatchObject({
      text: 'see @everything:demo://doc/architecture.md ',
    });
    expect(tab(typed('see @every'))).toMatchObject({ text: 'see @everything:demo://doc/ar' });
    expect(tab(typed('/args'))).toEqual(typed('/args'));
  });

  it('several: they are listed with the line until the next key, which clears them', () => {
    const grown = tab(typed('see @every'));
    expect(grown.candidates).toEqual(['@everything:demo://doc/architecture.md', '@everything:demo://doc/arrows.md']);
    // Tab again lists them again, with nothing more to grow.
    expect(tab(grown)).toMatchObject({ text: grown.text, candidates: grown.candidates });
    expect(editLine(grown, 'c', {}).state).toMatchObject({
      text: 'see @everything:demo://doc/arc',
      candidates: undefined,
    });
    expect(tab(typed('/he')).candidates).toBeUndefined();
  });

  it('completes the word at the cursor and keeps what follows it', () => {
    expect(tab(typed('/everything:sim and more', 15))).toMatchObject({
      text: '/everything:simple-prompt  and more',
      cursor: 26,
    });
  });

  it('a plain word, or nothing that matches, changes nothing', () => {
    for (const line of [typed('hello'), typed('/zzz'), typed('@nowhere:'), typed('')]) expect(tab(line)).toEqual(line);
  });
});

describe('a prompt argument at the cursor', () => {
  it('names the prompt, the argument and the value typed so far, with the arguments before it', () => {
    expect(argumentAtCursor(typed('/everything:completable-prompt department=Sales name=Da'))).toEqual({
      prompt: 'everything:completable-prompt',
      argument: { name: 'name', value: 'Da' },
      typed: { department: 'Sales' },
      prefix: 'name=',
    });
    expect(argumentAtCursor(typed('/args-prompt city="São Paulo" state='))).toMatchObject({
      prompt: 'args-prompt',
      argument: { name: 'state', value: '' },
      typed: { city: 'São Paulo' },
    });
  });

  it('is no argument anywhere else: a message, a bare prompt, a word without =, or the cursor elsewhere', () => {
    for (const line of [
      typed('tell me about city=Lisbon'),
      typed('/everything:args-prompt'),
      typed('/everything:args-prompt Lisbon'),
      typed('/everything:args-prompt city=Lis more', 28),
    ])
      expect(argumentAtCursor(line)).toBeUndefined();
  });

  it('a suggested value with a space is quoted; an answer line completes whole, spaces and all', () => {
    expect(argumentValue('New York')).toBe('"New York"');
    expect(argumentValue('Lisbon')).toBe('Lisbon');
    expect(completeLine(typed('New Y'), () => ['New York', 'Newark'], true)).toMatchObject({ text: 'New York ' });
    expect(completeLine(typed('New Y'), () => ['New York'])).toEqual(typed('New Y'));
  });
});
