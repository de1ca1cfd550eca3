// A process that starts a redis-server through the harness, prints the server's PID, and waits to be
// killed: test/helpers/redis-server.test.ts kills it outright and sees the server go with it.
import { startRedisServer } from './redis-server.js';

const server = await startRedisServer();
process.stdout.write(`${server.pid}\n`);
setInterval(() => {}, 60_000);
