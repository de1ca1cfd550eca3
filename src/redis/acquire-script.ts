/**
 * The acquire script: takes a place for one attempt or says how long to wait, one Redis round trip
 * per call with free places. See lua-scripts.ts for how the windows, leases and line are kept.
 */
import { type ArgSpec, type KeyName, luaPrologue } from './keys.js';
import { endAttempts, formatNumber } from './lua-scripts.js';

/** A quota's limits and window lengths as the scripts take them (0: no such limit). */
export interface ScriptLimits {
  readonly perMinute: number;
  readonly minuteMs: number;
  readonly perDay: number;
  readonly dayMs: number;
  readonly concurrency: number;
  /** The least time between two starts in ms (`pacing: 'even'`), or 0. */
  readonly spacing: number;
}

/**
 * What an acquire script is made for: a quota's limits, written into its source (see
 * {@link acquireScript}), and how long a waiting ticket keeps its place past the wait it was told
 * unless it asks again.
 */
export interface AcquireSettings extends ScriptLimits {
  readonly lineGraceMs: number;
}

/**
 * The acquire script's arguments, then the tickets of this process's attempts that have ended since its
 * last call (see endAttempts): a process sending one request after another runs one script each.
 * `leaseMs` is the attempt's timeout plus a margin for a holder that dies; `asked` is 1 when this
 * ticket was told to wait before.
 */
export const acquireArgs: readonly ArgSpec[] = [
  { name: 'ticket' },
  { name: 'leaseMs', number: true },
  { name: 'asked' },
];

/** The acquire script's ARGV: {@link acquireArgs} in their order, then the ends a call carries. */
export function acquireArgv(
  ticket: string,
  leaseMs: string,
  asked: boolean,
  ends: readonly string[],
): string[] {
  const argv = [ticket, leaseMs, asked ? '1' : '0'];
  for (const end of ends) argv.push(end);
  return argv;
}

/**
 * The keys an acquire script for `settings` takes, in order: the logs and leases its limits keep, the
 * line and the holds, and the paced start when pacing. A key no limit needs is not sent.
 */
export function acquireKeyNames(settings: AcquireSettings): KeyName[] {
  const { perMinute, perDay, concurrency, spacing } = settings;
  return [
    ...(perMinute > 0 ? (['minute'] as const) : []),
    ...(perDay > 0 ? (['day'] as const) : []),
    ...(concurrency > 0 ? (['leases'] as const) : []),
    ...(['line', 'lineExpiry', 'lineSeq', 'pause', 'block'] as const),
    ...(spacing > 0 ? (['pace'] as const) : []),
  ];
}

/** The acquire script after its prologue: see {@link acquireScript}. */
const acquireBody = `${formatNumber}
${endAttempts}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
endAttempts(now, ${acquireArgs.length + 1})
-- A ticket that holds a place was granted it by this very ask, run again: a client that lost the
-- answer sends the script again once it reconnects (ioredis does). It gets the same answer, where
-- it would otherwise wait in line behind its own place.
local grantedIn = leasesKey or minuteKey or dayKey
if grantedIn then
  local leaseEnd = tonumber(redis.call('ZSCORE', grantedIn, ticket) or '0')
  if leaseEnd > now then return {0, math.max(0, math.ceil((leaseEnd - leaseMs * 1000 - now) / 1000))} end
end
-- Half as long again as needed when it must grow: the next calls then find it long enough. A key
-- that was empty before this call is new: its TTL is set without asking.
local function keep(key, ms, new)
  if new or redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, fmt(ms * 1.5)) end
end
local function forget(id)
  redis.call('ZREM', lineKey, id)
  redis.call('ZREM', lineExpiryKey, id)
end

-- The holds and the line, read when one of them is there: most calls find none, which one EXISTS
-- tells. Paced, the last start is wanted every time, read with the holds.
local blocked, paused, lastStart, waiting = 0, 0, 0, 0
if spacing > 0 or redis.call('EXISTS', blockKey, pauseKey, lineKey) > 0 then
  local holds
  if spacing > 0 then
    holds = redis.call('MGET', blockKey, pauseKey, paceKey)
  else
    holds = redis.call('MGET', blockKey, pauseKey)
  end
  blocked = tonumber(holds[1] or '0')
  paused = tonumber(holds[2] or '0')
  lastStart = tonumber(holds[3] or '0')
  waiting = redis.call('ZCARD', lineKey)
end
if blocked > now then
  if asked == '1' then forget(ticket) end
  return {2, math.ceil((blocked - now) / 1000)}
end

-- The line, only when someone waits: waiters that stopped asking (killed while waiting) leave it.
local rank = 0
local queued = false
if waiting > 0 then
  local gone = redis.call('ZRANGEBYSCORE', lineExpiryKey, '-inf', fmt(now), 'LIMIT', 0, 1000)
  for _, id in ipairs(gone) do forget(id) end
  if #gone > 0 then waiting = redis.call('ZCARD', lineKey) end
  rank = waiting
  if asked == '1' then
    local r = redis.call('ZRANK', lineKey, ticket)
    if r then
      rank = r
      queued = true
    end
  end
end

-- How many may start now, and the wait (µs) before the ticket at this rank could.
local free = math.huge
local wait = 0
local unknown = false
local counts = {}
local function window(key, limit, ms)
  if limit <= 0 then return end
  -- Starts older than the window are trimmed when the count could stop this rank, and at every
  -- 64th count (each start adds one) so that the log stays small under a high limit: short of the
  -- limit, one left over changes no answer.
  local used = redis.call('ZCARD', key)
  if used + rank >= limit or used % 64 == 0 then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', fmt(now - ms * 1000))
    used = redis.call('ZCARD', key)
  end
  counts[key] = used
  free = math.min(free, limit - used)
  -- This rank starts once the (used - limit + rank + 1) oldest starts have left the window; one still
  -- in flight leaves it a window after its end at the earliest.
  local k = used - limit + rank
  if k >= 0 then
    local i = math.min(k, used - 1)
    local oldest = redis.call('ZRANGE', key, i, i, 'WITHSCORES')
    if oldest[2] then wait = math.max(wait, math.min(tonumber(oldest[2]), now) + ms * 1000 - now) end
  end
end
window(minuteKey, perMinute, minuteMs)
window(dayKey, perDay, dayMs)
if concurrency > 0 then
  local held = redis.call('ZCARD', leasesKey)
  if held + rank >= concurrency then
    -- Leases whose holder never gave them back (it died) end here, when their places are wanted.
    redis.call('ZREMRANGEBYSCORE', leasesKey, '-inf', fmt(now))
    held = redis.call('ZCARD', leasesKey)
  end
  counts[leasesKey] = held
  free = math.min(free, concurrency - held)
  if held + rank >= concurrency then unknown = true end
end
if paused > now then
  free = 0
  wait = math.max(wait, paused - now)
end
-- Paced: one start at a time, no earlier than a spacing after the last one. The head of the line
-- reserves the next start once it is at most a spacing away; rank r can do so r spacings later. A
-- long line's later ranks are told no more than the longest window: they ask again then, keeping
-- their place, and a wait stays within what the quota takes from Redis.
local start = now
if spacing > 0 then
  local step = spacing * 1000
  start = math.max(now, lastStart + step)
  free = math.min(free, 1)
  if start - now > step then
    free = 0
    wait = math.max(wait, start - now - step)
  end
  if rank > 0 then
    local reach = math.max(minuteMs, perDay > 0 and dayMs or 0) * 1000
    wait = math.max(wait, math.min(start + (rank - 1) * step - now, reach))
  end
end

if rank < free then
  if spacing > 0 then
    redis.call('SET', paceKey, fmt(start), 'PX', fmt((start - now) / 1000 + spacing + 1000))
  end
  local leaseEnd = fmt(start + leaseMs * 1000)
  -- A paced start booked ahead holds its entries that much longer: each key outlives them.
  local untilLeaseEnd = (start - now) / 1000 + leaseMs + 1000
  if perMinute > 0 then
    redis.call('ZADD', minuteKey, leaseEnd, ticket)
    keep(minuteKey, untilLeaseEnd + minuteMs, counts[minuteKey] == 0)
  end
  if perDay > 0 then
    redis.call('ZADD', dayKey, leaseEnd, ticket)
    keep(dayKey, untilLeaseEnd + dayMs, counts[dayKey] == 0)
  end
  if concurrency > 0 then
    redis.call('ZADD', leasesKey, leaseEnd, ticket)
    keep(leasesKey, untilLeaseEnd, counts[leasesKey] == 0)
  end
  if queued then forget(ticket) end
  return {0, math.ceil((start - now) / 1000)}
end

-- In line: a ticket keeps its place as long as it asks again within its wait plus lineGraceMs.
local waitMs = math.ceil(wait / 1000)
if not queued then redis.call('ZADD', lineKey, redis.call('INCR', lineSeqKey), ticket) end
local life = waitMs + lineGraceMs
redis.call('ZADD', lineExpiryKey, fmt(now + life * 1000), ticket)
keep(lineKey, life + 1000)
keep(lineExpiryKey, life + 1000)
keep(lineSeqKey, life + 1000)
if unknown and waitMs == 0 then return {1, -1} end
return {1, waitMs}
`;

/**
 * Takes a place for one attempt, or says how long to wait. Returns {0, ms}: granted, to start in `ms`
 * (0 but when paced: the next start's time, kept in paceKey, is reserved up to one spacing ahead, so
 * that starts keep to the rate instead of losing a round trip each). {1, ms}: wait
 * about `ms` (-1: until a place is given back, unknown). {2, ms}: blocked by a daily-limit 429 for
 * `ms` more: refuse without sending.
 *
 * One script per quota's settings, written into its source, and only the keys they need: a call
 * then sends its ticket, its lease and the ends it carries, and Redis reads no limit per call.
 */
export function acquireScript(settings: AcquireSettings): string {
  const { perMinute, minuteMs, perDay, dayMs, concurrency, lineGraceMs, spacing } = settings;
  const constants = { perMinute, minuteMs, perDay, dayMs, concurrency, lineGraceMs, spacing };
  return `${luaPrologue(acquireArgs, acquireKeyNames(settings), constants)}
${acquireBody}`;
}
