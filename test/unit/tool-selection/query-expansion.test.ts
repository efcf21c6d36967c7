/** The words a request is widened with: equivalent words, and the parameter its values are for. */
import { describe, expect, it } from 'vitest';
import { equivalents, valueHints, withoutPaths } from '../../../src/engine/tool-selection/query-expansion.js';

const asIs = (word: string): string => word;

describe('equivalents', () => {
  it('adds the verbs that name the same action, and none of the words already there', () => {
    const added = equivalents(['forget', 'jake'], asIs);
    expect(added).toEqual(expect.arrayContaining(['delete', 'remove', 'erase']));
    expect(added).not.toContain('forget');
    expect(added).not.toContain('jake');
  });

  it('adds the other names of a thing software shows or keeps', () => {
    expect(equivalents(['popup'], asIs)).toEqual(expect.arrayContaining(['dialog', 'modal']));
    expect(equivalents(['folder'], asIs)).toContain('directory');
  });

  it('adds nothing for words that name neither an action nor such a thing', () => {
    expect(equivalents(['sister', 'porto'], asIs)).toEqual([]);
  });

  it('matches through the normalizer, and answers in its terms: the index stems both sides', () => {
    const normalize = (word: string): string => word.toLowerCase().replace(/s$/, '');
    const added = equivalents([normalize('Hits')], normalize);
    expect(added).toContain(normalize('press'));
    expect(added).not.toContain('press');
  });
});

describe('valueHints', () => {
  it.each([
    ['open example.com and take a screenshot', ['url']],
    ['Log into staging.acme.io with user demo', ['url']],
    ['fetch https://x.dev/a?b=c', ['url']],
    ['read notes.txt', ['file', 'path']],
    ['show me the last lines of logs/server.log', ['file', 'path']],
    ['make a folder docs/api/v2', ['file', 'path']],
    ['attach ~/cv/resume.pdf', ['file', 'path']],
    ['what is in ./src?', ['file', 'path']],
    ['what does document.title return here?', ['code', 'function', 'javascript']],
    ['test server: add 3 and 4', ['number']],
    ['dinner was 186.40, add an 18% tip', ['number']],
    ['split 1,380 between 4 of us', ['number']],
    ['show me journal/2024-05-01.md and 2024-05-02.md', ['file', 'path']],
  ])('%j → %j', (text, hints) => {
    expect(valueHints(text).sort()).toEqual([...hints].sort());
  });

  it.each([
    'put jane.doe@gmail.com in the email box',
    'the priority/audience metadata',
    'e.g. version 3.5',
    'hit enter',
    'how many tasks are on the Sprint 12 page?',
    'compare Q3 and Q4 in v2.1',
  ])('no hint in %j: an address, "and/or", abbreviations, a number alone or in a name', (text) => {
    expect(valueHints(text)).toEqual([]);
  });
});

describe('withoutPaths', () => {
  it('leaves out paths and file names, and the words around them stay where they were', () => {
    const words = (text: string): string[] => withoutPaths(text).split(/\s+/).filter(Boolean);
    expect(words('in ~/website/index.html replace Foo with Bar')).toEqual(['in', 'replace', 'Foo', 'with', 'Bar']);
    expect(words('read notes.txt, then logs/server.log.')).toEqual(['read', 'then']);
    expect(words('what is in ./src?')).toEqual(['what', 'is', 'in']);
    expect(withoutPaths('swap X in a.md for Y')).toBe('swap X in   for Y');
  });

  it('keeps web addresses, code and a word pair with a slash: their words may say what is wanted', () => {
    for (const text of ['open example.com and check document.title', 'and/or the page', 'go to https://x.dev/a'])
      expect(withoutPaths(text)).toBe(text);
  });
});
