import type { MockApi } from './mock-api-types.js';
import { checkMockWebhookUrl } from './urls.js';
import { deliver, type MockWebhookDelivery } from './webhooks.js';

/** Where the mock sends `score_updated` events: the URLs subscribed, and the delivery to each. */
export class Subscribers implements Pick<MockApi['webhooks'], 'subscribe' | 'unsubscribe' | 'urls'> {
  readonly #urls: string[] = [];
  readonly #initial: readonly string[];
  readonly #fetch: typeof globalThis.fetch;
  readonly #timeoutMs: number;

  constructor(initial: readonly string[], fetch: typeof globalThis.fetch | undefined, timeoutMs: number) {
    // A URL given twice is one subscriber: one delivery per event, gone with one unsubscribe.
    this.#initial = [...new Set(initial)];
    this.#fetch = fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#timeoutMs = timeoutMs;
  }

  subscribe(url: string): () => void {
    checkMockWebhookUrl(url);
    if (!this.#urls.includes(url)) this.#urls.push(url);
    return () => this.unsubscribe(url);
  }

  unsubscribe(url: string): void {
    const index = this.#urls.indexOf(url);
    if (index >= 0) this.#urls.splice(index, 1);
  }

  get urls(): readonly string[] {
    return [...this.#urls];
  }

  /** Sends `event` to every URL subscribed, each delivery's outcome in order. */
  deliver(event: Parameters<typeof deliver>[1]): Promise<MockWebhookDelivery[]> {
    return Promise.all(this.#urls.map((url) => deliver(url, event, this.#fetch, this.#timeoutMs)));
  }

  /** Back to the URLs the mock was made with. */
  reset(): void {
    this.#urls.splice(0, this.#urls.length, ...this.#initial);
  }
}
