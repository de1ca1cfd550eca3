// With msw installed: the handlers spread into msw's setup functions as they are.
import type { HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { createMockApi, mockHandlers } from 'scholarly-metrics/testing';

const api = createMockApi();
const server = setupServer(...mockHandlers(api));
server.use(...mockHandlers({ seed: 7 }));
const named: HttpHandler[] = mockHandlers<HttpHandler>(api);
server.resetHandlers(...named);
