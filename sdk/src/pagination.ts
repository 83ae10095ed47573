/** One page of a list: `{ data, nextCursor }` (nextCursor null on the last page). */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * A list call. `await` it for the first page; `for await (const item of ...)` to walk every item
 * across pages (the next page is fetched only when the current one is used up); `.pages()` to walk
 * page by page. Filters and `limit` apply to every page.
 */
export class PageRequest<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private first: Promise<Page<T>> | undefined;

  constructor(
    private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
    private readonly cursor?: string,
  ) {}

  private firstPage(): Promise<Page<T>> {
    this.first ??= this.fetchPage(this.cursor);
    return this.first;
  }

  then<R1 = Page<T>, R2 = never>(
    onfulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.firstPage().then(onfulfilled, onrejected);
  }

  /** Every page, starting with the first. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.firstPage();
    yield page;
    while (page.nextCursor) {
      page = await this.fetchPage(page.nextCursor);
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item into an array; stop after `max` items (default 10 000) so a huge list cannot exhaust memory. */
  async toArray(max = 10_000): Promise<T[]> {
    const out: T[] = [];
    for await (const item of this) {
      out.push(item);
      if (out.length >= max) break;
    }
    return out;
  }
}
