import { redisClients } from '../helpers/redis-clients.js';
import { describeWorkerProcesses } from './worker-processes.js';

describeWorkerProcesses(
  redisClients.find((kind) => kind.name === 'node-redis')!,
  'test/redis/processes-node-redis.test.ts',
);
