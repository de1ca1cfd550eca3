import type { Transport } from './transport.js';

/** A namespace of the client (`client.journals`, …): it declares requests, the transport sends them. */
export abstract class APIResource {
  protected readonly transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.transport = transport;
  }
}
