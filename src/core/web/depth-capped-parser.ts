// htmlparser2's Parser with a cap on how deep elements nest, as browsers have (Chromium's HTML parser
// stops nesting at 512 and adds deeper elements beside the deepest one). Without it a hostile page of
// 100,000 nested divs takes minutes: the parser's open-element stack grows at its front, so every
// element opened costs time in proportion to the depth. Past the cap an element is treated as void
// (htmlparser2's documented way to say "has no content"): it opens and closes at once, and what was
// inside it follows it as siblings, text included.
import { Parser, type Handler, type ParserOptions } from 'htmlparser2';

export const MAX_NESTING = 512;

export class DepthCappedParser extends Parser {
  private readonly open: { depth: number };
  /** Inside the tokenizer's "a tag opens" call: the next void question is about that tag. */
  private opening = false;
  /** The answer for the tag being opened, asked again when its start tag ends. */
  private capped = false;

  constructor(handler: Partial<Handler>, options?: ParserOptions) {
    // Every element htmlparser2 opens it also closes (void ones at once): opened minus closed is
    // the depth of its stack.
    const open = { depth: 0 };
    super({
      ...handler,
      onopentag(name, attribs, implied) { open.depth++; handler.onopentag?.(name, attribs, implied); },
      onclosetag(name, implied) { open.depth--; handler.onclosetag?.(name, implied); },
    }, options);
    this.open = open;
  }

  override onopentagname(start: number, endIndex: number): void {
    this.opening = true;
    try {
      super.onopentagname(start, endIndex);
    } finally {
      this.opening = false;
    }
  }

  protected override isVoidElement(name: string): boolean {
    if (super.isVoidElement(name)) return true;
    if (this.opening) {
      this.capped = this.open.depth >= MAX_NESTING;
      return this.capped;
    }
    // Asked once more when the start tag ends (whether to close it at once); a closing tag asks with
    // nothing remembered, and finds its element in the stack as usual.
    const capped = this.capped;
    this.capped = false;
    return capped;
  }
}
