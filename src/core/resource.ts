import { APIPromise } from './api-promise.js';
import type { RequestOptions } from './options.js';
import type { PageBody } from './page.js';
import { PagePromise, type PageRequestOptions } from './pagination.js';
import type { Route, Transport } from './transport.js';
import type { ResponseShape } from './validate.js';

/**
 * A namespace of the client (`client.journals`, …): it declares what to request and which schema
 * checks the answer; the transport does the rest.
 */
export abstract class APIResource {
  protected readonly transport: Transport;

  /** Made by `MetricClient`, which hands every namespace the same transport. */
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /**
   * A GET answered by one body. `route` builds the request, its parameter checks included, so that a
   * refusal rejects the promise instead of throwing at the call site.
   */
  protected request<T>(route: () => Route, shape: ResponseShape<T>, options?: RequestOptions): APIPromise<T> {
    return new APIPromise(
      () => this.transport.get(route, shape, options),
      () => this.transport.raw(route, options),
    );
  }

  /** A paginated GET. `route(page)` builds the request for one page, as {@link APIResource.request}. */
  protected paginate<T>(
    route: (page: number) => Route,
    shape: ResponseShape<PageBody<T>>,
    params: { page?: number; per_page?: number } | undefined,
    options: PageRequestOptions | undefined,
  ): PagePromise<T> {
    return new PagePromise(
      {
        answer: (page, pageOptions) => this.transport.get(() => route(page), shape, pageOptions),
        raw: (page, pageOptions) => this.transport.raw(() => route(page), pageOptions),
      },
      params?.page,
      params?.per_page,
      options,
    );
  }
}
