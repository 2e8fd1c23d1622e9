#!/usr/bin/env node
// Resets data/notes.json to a few example notes.
const fs = require('fs');
const path = require('path');

const notes = [
  { title: 'Release checklist', body: 'Bump the version, update the changelog, tag, publish.', tags: ['process'] },
  { title: 'Meeting notes 2026-11-20', body: 'Agreed to ship the export feature behind a flag.', tags: ['meetings'] },
  { title: 'Ideas', body: 'Markdown preview. Full-text search. Keyboard shortcuts for tags.', tags: ['product', 'backlog'] },
  { title: 'Onboarding', body: 'Read the README, run npm test, pick an issue labelled good-first-issue.', tags: ['process', 'team'] },
];

const now = Date.now();
const out = notes.map((n, i) => ({
  slug: n.title.toLowerCase().replace(/[^a-z0-9\s-]/g, '').replace(/\s/g, '-'),
  ...n,
  createdAt: new Date(now - (notes.length - i) * 86400000).toISOString(),
}));

const file = path.join(__dirname, '..', 'data', 'notes.json');
fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
console.log(`wrote ${out.length} notes to ${path.relative(process.cwd(), file)}`);
