/**
 * The Lua scripts of the shared quota. Each runs atomically in Redis, reads Redis's own clock
 * (`TIME`, in microseconds) so that processes on machines with skewed clocks still agree, and keeps
 * every key it touches under a TTL.
 *
 * The windows are exact sliding logs, not the two-fixed-window estimate of @upstash/ratelimit's
 * `slidingWindow`: one sorted set per window holds the start time of every request that started in
 * it (member: the attempt's ticket, score: the start), trimmed on each call with ZREMRANGEBYSCORE.
 * A start at `s` counts until `s + window` has passed, so no span of `window` ever holds more than
 * `limit` starts. Window lengths come in as ARGV, so tests can prove the counts over a short window.
 *
 * Numbers written back to Redis go through `string.format('%.0f', …)`: Redis turns a Lua number into
 * a string with 14 significant digits, which would round a microsecond time.
 */

/**
 * Ends attempts, shared by both scripts below: each start counts again from now, and each ticket's
 * lease and place in line are given back.
 *
 * The server counts a request when it arrives, after a time in transit that varies: counted from the
 * grant, a request that took long to arrive could leave the window before the server's count of it
 * does, and one granted a window later could reach the server too early. Counted from when its answer
 * came back (after it arrived), no later start can reach the server within a window of it.
 *
 * Takes: the keys in the order KEYS[1] starts per minute, KEYS[2] starts per day, KEYS[3] leases,
 * KEYS[4] the line, KEYS[5] the line's expiry times; the two window lengths in ms; the tickets from
 * `first` on in ARGV.
 */
const END_ATTEMPTS = `
local function endAttempts(now, minuteMs, dayMs, first)
  local stamp = string.format('%.0f', now)
  for a = first, #ARGV do
    local ticket = ARGV[a]
    for i, ms in ipairs({minuteMs, dayMs}) do
      if redis.call('ZSCORE', KEYS[i], ticket) then
        redis.call('ZADD', KEYS[i], 'XX', stamp, ticket)
        if redis.call('PTTL', KEYS[i]) < ms + 1000 then redis.call('PEXPIRE', KEYS[i], ms + 1000) end
      end
    end
    redis.call('ZREM', KEYS[3], ticket)
    redis.call('ZREM', KEYS[4], ticket)
    redis.call('ZREM', KEYS[5], ticket)
  end
end
`;

/**
 * Takes a place for one attempt, or says how long to wait.
 *
 * KEYS[1]  sorted set: starts in the per-minute window (member ticket, score start µs)
 * KEYS[2]  sorted set: starts in the per-day window (member ticket, score start µs)
 * KEYS[3]  sorted set: concurrency leases (member ticket, score lease end µs)
 * KEYS[4]  sorted set: the FIFO of waiting tickets (score: their number from KEYS[6])
 * KEYS[5]  sorted set: when each waiting ticket is forgotten unless it asks again (score µs)
 * KEYS[6]  string: the counter that numbers waiting tickets
 * KEYS[7]  string: a 429 pause, the Redis time it ends (µs)
 * KEYS[8]  string: a daily-limit block, the Redis time it ends (µs)
 * ARGV[1]  the attempt's ticket: unique per attempt, holds no secret
 * ARGV[2]  requests per minute window (0: no such limit)
 * ARGV[3]  the minute window's length in ms
 * ARGV[4]  requests per day window (0: no such limit)
 * ARGV[5]  the day window's length in ms
 * ARGV[6]  requests in flight at once (0: no such limit)
 * ARGV[7]  the lease's length in ms (the attempt's timeout plus a margin for a holder that dies)
 * ARGV[8]  how long a waiting ticket is kept past the wait it was told, in ms
 * ARGV[9…] tickets of this process's attempts that have ended since its last call: ended first
 *          (see END_ATTEMPTS), so that a process sending one request after another needs one round
 *          trip per request
 *
 * Returns {0, 0}: granted. {1, ms}: wait about `ms` (-1: until a place is given back, unknown).
 * {2, ms}: blocked by a daily-limit 429 for `ms` more: refuse without sending.
 */
export const ACQUIRE_SCRIPT = `${END_ATTEMPTS}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local ticket = ARGV[1]
endAttempts(now, tonumber(ARGV[3]), tonumber(ARGV[5]), 9)
local function fmt(n) return string.format('%.0f', n) end
local function keep(key, ms)
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, fmt(ms)) end
end
local function forget(id)
  redis.call('ZREM', KEYS[4], id)
  redis.call('ZREM', KEYS[5], id)
end

local blocked = tonumber(redis.call('GET', KEYS[8]) or '0')
if blocked > now then
  forget(ticket)
  return {2, math.ceil((blocked - now) / 1000)}
end

-- Waiters that stopped asking (a process killed while waiting) leave the line.
local gone = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', fmt(now), 'LIMIT', 0, 1000)
for _, id in ipairs(gone) do forget(id) end
-- Leases whose holder never gave them back (it died) end here.
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', fmt(now))

local rank = redis.call('ZRANK', KEYS[4], ticket)
local queued = rank ~= false
if not queued then rank = redis.call('ZCARD', KEYS[4]) end

-- How many may start now, and the wait (µs) before the ticket at this rank could.
local free = math.huge
local wait = 0
local unknown = false
local function window(key, limit, ms)
  if limit <= 0 then return end
  redis.call('ZREMRANGEBYSCORE', key, '-inf', fmt(now - ms * 1000))
  local used = redis.call('ZCARD', key)
  free = math.min(free, limit - used)
  -- This rank starts once the (used - limit + rank + 1) oldest starts have left the window.
  -- Further back in line than the window holds, it waits at least for the newest start to leave.
  local k = used - limit + rank
  if k >= 0 then
    local oldest = redis.call('ZRANGE', key, math.min(k, used - 1), math.min(k, used - 1), 'WITHSCORES')
    if oldest[2] then wait = math.max(wait, tonumber(oldest[2]) + ms * 1000 - now) end
  end
end
window(KEYS[1], tonumber(ARGV[2]), tonumber(ARGV[3]))
window(KEYS[2], tonumber(ARGV[4]), tonumber(ARGV[5]))
local concurrency = tonumber(ARGV[6])
if concurrency > 0 then
  local held = redis.call('ZCARD', KEYS[3])
  free = math.min(free, concurrency - held)
  if held + rank >= concurrency then unknown = true end
end
local paused = tonumber(redis.call('GET', KEYS[7]) or '0')
if paused > now then
  free = 0
  wait = math.max(wait, paused - now)
end

if rank < free then
  if tonumber(ARGV[2]) > 0 then
    redis.call('ZADD', KEYS[1], fmt(now), ticket)
    keep(KEYS[1], tonumber(ARGV[3]) + 1000)
  end
  if tonumber(ARGV[4]) > 0 then
    redis.call('ZADD', KEYS[2], fmt(now), ticket)
    keep(KEYS[2], tonumber(ARGV[5]) + 1000)
  end
  if concurrency > 0 then
    redis.call('ZADD', KEYS[3], fmt(now + tonumber(ARGV[7]) * 1000), ticket)
    keep(KEYS[3], tonumber(ARGV[7]) + 1000)
  end
  if queued then forget(ticket) end
  return {0, 0}
end

-- In line: a ticket keeps its place as long as it asks again within its wait plus ARGV[8].
local waitMs = math.ceil(wait / 1000)
if not queued then redis.call('ZADD', KEYS[4], redis.call('INCR', KEYS[6]), ticket) end
local life = waitMs + tonumber(ARGV[8])
redis.call('ZADD', KEYS[5], fmt(now + life * 1000), ticket)
keep(KEYS[4], life + 1000)
keep(KEYS[5], life + 1000)
keep(KEYS[6], life + 1000)
if unknown and waitMs == 0 then return {1, -1} end
return {1, waitMs}
`;

/**
 * Ends attempts when no acquire is coming to carry them (see END_ATTEMPTS).
 *
 * KEYS[1]  sorted set: starts in the per-minute window
 * KEYS[2]  sorted set: starts in the per-day window
 * KEYS[3]  sorted set: concurrency leases
 * KEYS[4]  sorted set: the FIFO of waiting tickets
 * KEYS[5]  sorted set: when each waiting ticket is forgotten
 * ARGV[1]  the minute window's length in ms
 * ARGV[2]  the day window's length in ms
 * ARGV[3…] the tickets
 */
export const RELEASE_SCRIPT = `${END_ATTEMPTS}
local t = redis.call('TIME')
endAttempts(tonumber(t[1]) * 1000000 + tonumber(t[2]), tonumber(ARGV[1]), tonumber(ARGV[2]), 3)
return 0
`;

/**
 * Holds every sharing client until Redis time + ARGV[1] ms: a 429 pause (KEYS[1] the pause key) or
 * a daily-limit block (KEYS[1] the block key). A later end wins; an earlier one changes nothing.
 *
 * KEYS[1]  string: the Redis time (µs) the hold ends, expiring then
 * ARGV[1]  the hold's length in ms
 */
export const HOLD_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local ms = tonumber(ARGV[1])
local ends = now + ms * 1000
if ends > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], string.format('%.0f', ends), 'PX', string.format('%.0f', ms))
end
return 0
`;
