// The documents the memory durability test's writer (memory-writer.ts) acknowledges, shared with the test.

/** The document a writer acknowledges as number n: its own path and a word found nowhere else. */
export function memoryDoc(n: number): { path: string; content: string; word: string } {
  const word = `uniq${n}marker`;
  const body = Array.from({ length: 6 }, (_, i) => `## Part ${i}\n\nParagraph ${i} of note ${n} about ${i === 3 ? word : 'routine things'}. ${'filler text '.repeat(30)}`);
  return { path: `memory/notes/${n}.md`, content: `# Note ${n}\n\n${body.join('\n\n')}\n`, word };
}
