/** Pages of a list walked by `next_url`, with the pages already seen kept for going back. */
import { getJson } from './api.js';

export interface Page {
  results: any[];
  next_url?: string;
}

export class Pager {
  private pages: Page[] = [];
  private index = -1;
  private run = 0;

  constructor(private readonly show: (page: Page, index: number, hasNext: boolean) => void) {}

  /** Loads the first page of `path`, forgetting any earlier walk. */
  async start(path: string): Promise<void> {
    const run = ++this.run;
    this.pages = [];
    this.index = -1;
    const page = await getJson<Page>(path);
    if (run !== this.run) return;
    this.pages.push(page);
    this.index = 0;
    this.render();
  }

  /** Follows the current page's `next_url`. */
  async next(): Promise<void> {
    const current = this.pages[this.index];
    if (!current?.next_url) return;
    if (this.index + 1 >= this.pages.length) {
      const run = this.run;
      const page = await getJson<Page>(current.next_url);
      if (run !== this.run) return;
      this.pages.push(page);
    }
    this.index++;
    this.render();
  }

  previous(): void {
    if (this.index <= 0) return;
    this.index--;
    this.render();
  }

  get hasPrevious(): boolean {
    return this.index > 0;
  }

  private render(): void {
    const page = this.pages[this.index]!;
    this.show(page, this.index, Boolean(page.next_url));
  }
}
