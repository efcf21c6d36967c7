// The attacker of the file-server race tests, as its own process so that it runs truly alongside
// the server: swaps one path inside the root between its real entry and a symbolic link to
// outside, as fast as it can, until the stop file exists or `max` swaps are done, and leaves the
// real entry in place. Started by `path-swapper.ts`:
//   node path-swapper-process.mjs <entry|link> <target> <outside> <insideDir> <stopFile> <max>
//
// `entry` mode: the real entry (a directory or a file) and a link to `outside`, moved in and out
// by rename. A swap cannot be atomic here (rename cannot put a link over a directory), so there
// is a gap in which nothing is at `target`, and the server may legitimately create a directory
// there (a write's missing parent). Whatever is in the way is moved aside, under a name never used
// before, and the rename is retried: a reused name could itself be a non-empty directory by then
// (ENOTEMPTY), which is how an earlier version of this script crashed under load.
// `link` mode: a link to `insideDir` and a link to `outside`, each swapped in by one atomic rename.
import fs from 'node:fs';

const [mode, target, outside, insideDir, stopFile, max] = process.argv.slice(2);
const aside = `${target}.aside`;
const staged = `${target}.staged`;
/** What rename says when something occupies its destination. */
const OCCUPIED = new Set(['EEXIST', 'ENOTEMPTY', 'EISDIR', 'ENOTDIR']);
/** A server recreating the entry faster than it can be moved aside this often means a broken test, not a race. */
const MAX_ATTEMPTS = 1000;
let movedAside = 0;

function code(error) {
  return error instanceof Error ? error.code : undefined;
}

/** Moves whatever the server made at `where` out of the way; it may already be gone again. */
function moveAside(where) {
  try {
    fs.renameSync(where, `${where}.made-${movedAside++}`);
  } catch (error) {
    if (code(error) !== 'ENOENT') throw error;
  }
}

/** Renames `from` to `to`, moving aside anything the server created at `to` meanwhile. */
function place(from, to) {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(from, to);
      return;
    } catch (error) {
      if (!OCCUPIED.has(code(error)) || attempt === MAX_ATTEMPTS) throw error;
      moveAside(to);
    }
  }
}

function swapEntry() {
  fs.renameSync(target, aside);
  place(staged, target);
  fs.renameSync(target, staged);
  place(aside, target);
}

function retargetLink() {
  fs.symlinkSync(outside, staged);
  fs.renameSync(staged, target);
  fs.symlinkSync(insideDir, staged);
  fs.renameSync(staged, target);
}

if (mode === 'entry') fs.symlinkSync(outside, staged);
const swap = mode === 'entry' ? swapEntry : retargetLink;
for (let i = 0; i < Number(max) && !fs.existsSync(stopFile); i++) swap();
