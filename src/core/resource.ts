import { APIPromise } from './api-promise.js';
import type { ClientCache } from './cache-types.js';
import type { CacheMethod } from './options/cache.js';
import { type OptionNames, type RequestOptions, requestOptionNames } from './options/request.js';
import type { PageBody } from './page.js';
import { PagePromise, type PageRequestOptions } from './pagination.js';
import { checkOptionNames, type MethodSpec } from './params.js';
import type { TelemetryAttributes } from './telemetry-types.js';
import type { Answer, Route, Transport, TransportOptions } from './transport.js';
import type { ResponseShape } from './validate.js';

/** What a method of the client declares of itself; its name is the cache's and telemetry's too. */
export interface ResourceMethod extends MethodSpec {
  readonly method: CacheMethod;
}

/** The names of {@link PageRequestOptions}: the last argument of a paginated method. */
export const pageOptionNames: OptionNames<PageRequestOptions> = { ...requestOptionNames, prefetch: true };

/**
 * A namespace of the client (`client.journals`, …): it declares what to request and which schema
 * checks the answer; the transport does the rest.
 */
export abstract class APIResource {
  protected readonly transport: Transport;
  /** The client's cache, when it was given the `cache` option. */
  protected readonly cache: ClientCache | undefined;

  /** Made by `MetricClient`, which hands every namespace the same transport (and cache). */
  constructor(transport: Transport, cache?: ClientCache) {
    this.transport = transport;
    this.cache = cache;
  }

  /** One GET of `method`: through the cache when the client has one, else straight to the transport. */
  #get<T>(
    method: CacheMethod,
    route: () => Route,
    shape: ResponseShape<T>,
    options: TransportOptions | undefined,
  ): Promise<Answer<T>> {
    const send = (given: TransportOptions | undefined) => this.transport.get(route, shape, given);
    const answer = (given: TransportOptions | undefined) =>
      this.cache ? this.cache.answer(method, route, shape, given, send) : send(given);
    return this.traced(method, route, options, answer);
  }

  /** `send` as one call of `method`, through the client's telemetry when it has one. */
  protected traced<R>(
    method: string,
    route: (() => Route) | undefined,
    options: TransportOptions | undefined,
    send: (options: TransportOptions | undefined) => Promise<R>,
    summarize?: (result: R) => TelemetryAttributes,
  ): Promise<R> {
    const { telemetry } = this.transport;
    return telemetry
      ? telemetry.call(method, { route, summarize, headers: options?.headers }, (attempts) =>
          send({ ...options, attempts }),
        )
      : send(options);
  }

  /**
   * A GET answered by one body. `route` builds the request, its parameter checks included, so that a
   * refusal rejects the promise instead of throwing at the call site; a name in `options` that
   * `spec.options` lacks is refused the same way. `spec.method` is the contract's name of the calling
   * method (`journals.get`): the cache keeps answers, and their lifetimes, by it.
   */
  protected request<T>(
    spec: ResourceMethod,
    route: () => Route,
    shape: ResponseShape<T>,
    options?: RequestOptions,
  ): APIPromise<T> {
    const { method } = spec;
    const checked = () => {
      checkOptionNames(spec, options);
      return route();
    };
    return new APIPromise(
      () => this.#get(method, checked, shape, options),
      () => this.traced(method, checked, options, (given) => this.transport.raw(checked, given)),
    );
  }

  /** A paginated GET. `route(page)` builds the request for one page, as {@link APIResource.request}. */
  protected paginate<T>(
    spec: ResourceMethod,
    route: (page: number) => Route,
    shape: ResponseShape<PageBody<T>>,
    params: { page?: number; per_page?: number } | undefined,
    options: PageRequestOptions | undefined,
  ): PagePromise<T> {
    const { method } = spec;
    const checked = (page: number) => {
      checkOptionNames(spec, options);
      return route(page);
    };
    return new PagePromise(
      {
        answer: (page, pageOptions) => this.#get(method, () => checked(page), shape, pageOptions),
        raw: (page, pageOptions) =>
          this.traced(
            method,
            () => checked(page),
            pageOptions,
            (given) => this.transport.raw(() => checked(page), given),
          ),
      },
      params?.page,
      params?.per_page,
      options,
    );
  }
}
