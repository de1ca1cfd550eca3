import { redisClients } from '../helpers/redis-clients.js';
import { describeWorkerProcesses } from './worker-processes.js';

describeWorkerProcesses(
  redisClients.find((kind) => kind.name === 'ioredis')!,
  'test/redis/processes-ioredis.test.ts',
);
