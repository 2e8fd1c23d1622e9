import * as fs from 'fs';
import { slugify } from './util/slugify';

export interface Note {
  slug: string;
  title: string;
  body: string;
  tags: string[];
  createdAt: string;
}

export class NoteStore {
  private readonly notes = new Map<string, Note>();

  constructor(private readonly file: string) {}

  load(): void {
    if (!fs.existsSync(this.file)) return;
    const raw = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Note[];
    for (const n of raw) this.notes.set(n.slug, n);
  }

  save(): void {
    fs.writeFileSync(this.file, JSON.stringify([...this.notes.values()], null, 2) + '\n');
  }

  list(tag?: string): Note[] {
    const all = [...this.notes.values()];
    return tag ? all.filter((n) => n.tags.includes(tag)) : all;
  }

  get(slug: string): Note | undefined {
    return this.notes.get(slug);
  }

  add(title: string, body: string, tags: string[] = []): Note {
    const slug = slugify(title);
    if (this.notes.has(slug)) throw new Error(`a note called "${title}" already exists`);
    const note: Note = { slug, title, body, tags, createdAt: new Date().toISOString() };
    this.notes.set(slug, note);
    return note;
  }

  // TODO: remove(slug) — the API has no way to delete notes yet.
}
