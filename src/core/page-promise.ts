/**
 * The result of a paged operation: awaiting it gives the response (one page, or all pages with
 * `allPages`), and `for await` walks every item of every page, lazily, following `next_url`.
 * The request starts when the value is first awaited or iterated.
 *
 * @example
 * for await (const trade of client.getTradesV3('AAPL', { timestamp: '2024-01-02', maxItems: 10_000 })) {
 *   if (trade.price > 200) break; // stops fetching
 * }
 */
export class PagePromise<T, Item> implements PromiseLike<T>, AsyncIterable<Item> {
  #promise: Promise<T> | undefined;
  readonly #run: () => Promise<T>;
  readonly #walk: () => AsyncGenerator<Item>;

  constructor(run: () => Promise<T>, walk: () => AsyncGenerator<Item>) {
    this.#run = run;
    this.#walk = walk;
  }

  #start(): Promise<T> {
    this.#promise ??= this.#run();
    return this.#promise;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is deliberately thenable.
  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#start().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#start().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#start().finally(onFinally);
  }

  [Symbol.asyncIterator](): AsyncGenerator<Item> {
    return this.#walk();
  }

  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}
