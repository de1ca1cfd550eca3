import { APIPromise } from './api-promise.js';
import type { ClientCache } from './cache-types.js';
import { checkOptionNames, type Endpoint, type PathValues, type Route, routeTo } from './endpoint.js';
import { checkObject, type OptionNames } from './options/checks.js';
import { requestOptionNames } from './options/request.js';
import type { PageBody } from './page.js';
import { PagePromise, type PageRequestOptions } from './pagination.js';
import type { TelemetryAttributes } from './telemetry-types.js';
import type { Answer, Transport, TransportOptions } from './transport.js';

/** The names of {@link PageRequestOptions}: the last argument of a paginated method. */
export const pageOptionNames: OptionNames<PageRequestOptions> = { ...requestOptionNames, prefetch: true };

/**
 * A namespace of the client (`client.journals`, …): it declares what to request and which schema
 * checks the answer; the transport does the rest.
 *
 * Its constructor and protected members are marked internal: left out of the published declarations,
 * which would otherwise name core types no entry exports (a consumer could not re-emit them).
 */
export abstract class APIResource {
  /** @internal */
  declare protected readonly transport: Transport;
  /** @internal The client's cache, when it was given the `cache` option. */
  declare protected readonly cache: ClientCache | undefined;

  /** @internal Made by `MetricClient`, which hands every namespace the same transport (and cache). */
  constructor(transport: Transport, cache?: ClientCache) {
    this.transport = transport;
    this.cache = cache;
  }

  /** One GET of `endpoint`: through the cache when the client has one, else straight to the transport. */
  #get<T>(
    endpoint: Endpoint<T>,
    route: () => Route,
    options: TransportOptions | undefined,
  ): Promise<Answer<T>> {
    const { shape } = endpoint;
    const send = (given: TransportOptions | undefined) => this.transport.get(route, shape, given);
    const answer = (given: TransportOptions | undefined) =>
      this.cache ? this.cache.answer(route, shape, given, send) : send(given);
    return this.traced(endpoint, route, options, answer);
  }

  /** One GET of `endpoint` for its 2xx response, unread: never through the cache, which keeps checked answers. */
  #raw(endpoint: Endpoint, route: () => Route, options: TransportOptions | undefined): Promise<Response> {
    return this.traced(endpoint, route, options, (given) => this.transport.raw(route, given));
  }

  /**
   * @internal `send` as one call of `method` (an endpoint, or a method of several requests such as
   * `papers.getMany`), through the client's telemetry when it has one.
   */
  protected traced<R>(
    method: { readonly name: string; readonly path?: string },
    route: (() => Route) | undefined,
    options: TransportOptions | undefined,
    send: (options: TransportOptions | undefined) => Promise<R>,
    summarize?: (result: R) => TelemetryAttributes,
  ): Promise<R> {
    const { telemetry } = this.transport;
    return telemetry
      ? telemetry.call(
          method.name,
          { route, template: method.path, summarize, headers: options?.headers },
          (attempts) => send({ ...options, attempts }),
        )
      : send(options);
  }

  /**
   * @internal A GET of `endpoint` answered by one body. The request is built (its parameter checks included)
   * when the call runs, so that a refusal rejects the promise instead of throwing at the call site;
   * a name in `options` that `allowed` lacks is refused the same way.
   */
  protected request<T>(
    endpoint: Endpoint<T>,
    pathValues: PathValues,
    params: object | undefined,
    options: TransportOptions | undefined,
    allowed: Readonly<Record<string, true>> = requestOptionNames,
  ): APIPromise<T> {
    const route = () => {
      checkOptionNames(endpoint, options, allowed);
      return routeTo(endpoint, pathValues, params);
    };
    return new APIPromise(
      () => this.#get(endpoint, route, options),
      () => this.#raw(endpoint, route, options),
    );
  }

  /** @internal A paginated GET of `endpoint`, built for each page as {@link APIResource.request} builds one. */
  protected paginate<T>(
    endpoint: Endpoint<PageBody<T>>,
    pathValues: PathValues,
    params: { page?: number; per_page?: number } | undefined,
    options: PageRequestOptions | undefined,
  ): PagePromise<T> {
    // Each page checks the options it is sent with, the call's or those given to getNextPage(), less
    // the walk's own hook.
    const route =
      (page: number, { onRetry: _, ...given }: TransportOptions) =>
      () => {
        // The call's own options, before the walk spread them into its own: an object, or refused.
        checkObject('options', options);
        checkOptionNames(endpoint, given, pageOptionNames);
        return routeTo(endpoint, pathValues, params, { page });
      };
    return new PagePromise(
      {
        answer: (page, given) => this.#get(endpoint, route(page, given), given),
        raw: (page, given) => this.#raw(endpoint, route(page, given), given),
      },
      params?.page,
      params?.per_page,
      options,
    );
  }
}
