/**
 * Ink splits what it reads from the terminal at escape sequences only: keys pressed faster than
 * one read (Ctrl+U then Ctrl+R, a word and two Backspaces, Ctrl+R and the search's first letters)
 * reach `useInput` as one string of text such as "\x15\x12" or "abc\x7f\x7f". This splits such a
 * chunk back into the keys it holds, so each control key acts and none lands on the line as text.
 */
import type { Key } from 'ink';

export interface KeyPress {
  input: string;
  key: Key;
}

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** Ctrl+A to Ctrl+Z, Backspace and DEL; not Tab, line feed or Enter, which a paste keeps as text. */
const CONTROL_KEY = /[\u0001-\u0008\u000b\u000c\u000e-\u001a\u007f]/u;
/** The same, kept as parts of the split. */
const AROUND_CONTROL_KEYS = new RegExp(`(${CONTROL_KEY.source})`, 'u');

/** One control character as Ink reports it when it arrives alone. */
function controlPress(char: string): KeyPress {
  if (char === '\u007f') return { input: '', key: { ...noKey, delete: true } };
  if (char === '\b') return { input: '', key: { ...noKey, backspace: true } };
  return { input: String.fromCharCode(char.charCodeAt(0) + 96), key: { ...noKey, ctrl: true } };
}

/** A run of text between control keys; Enter or Tab alone is that key, as Ink reports it. */
function textPress(text: string): KeyPress {
  if (text === '\r') return { input: '', key: { ...noKey, return: true } };
  if (text === '\t') return { input: '', key: { ...noKey, tab: true } };
  return { input: text, key: noKey };
}

/** The key presses in what Ink handed over: itself, unless it is text with control keys inside. */
export function keysInChunk(input: string, key: Key): KeyPress[] {
  if (input.length < 2 || key.ctrl || key.meta || !CONTROL_KEY.test(input)) return [{ input, key }];
  return input
    .split(AROUND_CONTROL_KEYS)
    .filter((part) => part !== '')
    .map((part) => (CONTROL_KEY.test(part) ? controlPress(part) : textPress(part)));
}
