// Run with `npm test` (builds first). Uses node's built-in test runner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { NoteStore } = require('../dist/notes.js');
const { slugify } = require('../dist/util/slugify.js');

test('slugify makes lower-case dashed slugs', () => {
  assert.equal(slugify('Release Checklist'), 'release-checklist');
});

test('slugify collapses punctuation and spaces into one dash', () => {
  assert.equal(slugify('Hello,  World!'), 'hello-world'); // fails today: "hello--world"
});

test('the store saves and loads notes', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'notes-')), 'notes.json');
  const a = new NoteStore(file);
  a.add('First note', 'body', ['x']);
  a.save();
  const b = new NoteStore(file);
  b.load();
  assert.deepEqual(b.list('x').map((n) => n.slug), ['first-note']);
});
