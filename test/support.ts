/**
 * What every test file uses to fake the API and watch the client. Three kinds of fake API: msw for
 * unit tests (`useMsw`), the mock server for integration tests (`useMockServer`), and a real socket
 * that misbehaves for what neither can do faithfully, bodies that stall and sockets that reset
 * (`useRealServer` for one test file; `startFaultServer` and its faults in
 * test/reliability/fault-server.ts, which child scripts import too). Besides: one client factory
 * (`testClient`), one recording logger and one test key. Browser tests keep test/browser/helpers.ts:
 * they run in Chromium, where this module's Node-only parts (msw/node, sockets) cannot load.
 */

export { eventually } from './helpers/eventually.js';
export { gate } from './helpers/gate.js';
export { useMockServer } from './helpers/mock-server.js';
export { BASE, inProcessFetch, journalProfile, json, sequence, useMsw } from './helpers/msw.js';
export { useRealServer } from './helpers/real-server.js';
export { type LoggedLine, recordingLogger } from './helpers/recording-logger.js';
export { type Fake, testClient } from './helpers/test-client.js';
export { OTHER_TEST_KEY, TEST_KEY, UNKNOWN_KEY } from './helpers/test-key.js';
export { type FaultServer, type Handler, startFaultServer } from './reliability/fault-server.js';
