/**
 * Turns a note title into a URL slug: "Hello World" -> "hello-world".
 * Known issue: runs of punctuation and spaces produce repeated dashes ("a,  b" -> "a--b").
 */
export function slugify(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .replace(/\s/g, '-');
}
