/** Tab: the word before the cursor completed from commands, servers' prompts and resources. */
import { describe, expect, it } from 'vitest';
import type { PromptInfo, ResourceInfo } from '../../src/chat/offers.js';
import { completionsFor } from '../../src/ui/commands.js';
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
