import { type PageBody, PagePromise, type PageRequestOptions } from './pagination.js';
import type { Route, Transport } from './transport.js';
import type { ResponseShape } from './validate.js';

/** A namespace of the client (`client.journals`, …): it declares requests, the transport sends them. */
export abstract class APIResource {
  protected readonly transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /**
   * A paginated GET. `route(page)` builds the request for one page, its parameter checks included,
   * so that a refusal rejects the walk instead of throwing at the call site.
   */
  protected paginate<T>(
    route: (page: number) => Route,
    shape: ResponseShape<PageBody<T>>,
    params: { page?: number; per_page?: number } | undefined,
    options: PageRequestOptions | undefined,
  ): PagePromise<T> {
    return new PagePromise(
      (page, pageOptions) => this.transport.get(() => route(page), shape, pageOptions),
      params?.page,
      params?.per_page,
      options,
    );
  }
}
