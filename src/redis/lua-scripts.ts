/**
 * The Lua scripts of the shared quota. Each runs atomically in Redis, reads Redis's own clock once
 * (`TIME`, in µs) so that machines with skewed clocks still agree, keeps every key it touches under a
 * TTL, and does only the work the limits set and the state call for.
 *
 * The windows are exact sliding logs: one sorted set per window holds a score per request that started
 * in it, trimmed of older starts before they could count. A request's score is the end of its lease
 * while it is in flight (it cannot reach the server later), and the time its answer came back once its
 * end is told (it reached the server before): so a start counts from no earlier than the server's
 * count of it, even when its end never comes (a process that exits). Numbers written back go through
 * `%.0f` (`fmt`): Redis before 7 turns a Lua number into 14 significant digits, rounding a µs time.
 */
import { type ArgSpec, luaPrologue } from './keys.js';

const limitArgs: readonly ArgSpec[] = [
  { name: 'perMinute', number: true },
  { name: 'minuteMs', number: true },
  { name: 'perDay', number: true },
  { name: 'dayMs', number: true },
  { name: 'concurrency', number: true },
];

/** A µs time or a TTL as Redis takes it, exact: `%d` would overflow the `long` of a 32-bit Redis. */
export const formatNumber = `
local function fmt(n) return string.format('%.0f', n) end
`;

/**
 * Ends the attempts named from ARGV[first] on: each start counts from when its answer came back,
 * `ticket@ms` that many ms before now (now without one), and its lease is given back. A ticket
 * written `~ticket` is a call that stopped waiting and was never sent: it leaves the line, and a
 * place Redis granted it meanwhile counts in no window.
 */
export const endAttempts = `
local function endAttempts(now, first)
  for a = first, #ARGV do
    local ticket = ARGV[a]
    local answered = now
    local at = string.find(ticket, '@', 1, true)
    if at then
      answered = now - (tonumber(string.sub(ticket, at + 1)) or 0) * 1000
      ticket = string.sub(ticket, 1, at - 1)
    end
    local stamp = fmt(answered)
    if string.byte(ticket, 1) == 126 then
      ticket = string.sub(ticket, 2)
      redis.call('ZREM', lineKey, ticket)
      redis.call('ZREM', lineExpiryKey, ticket)
      if perMinute > 0 then redis.call('ZREM', minuteKey, ticket) end
      if perDay > 0 then redis.call('ZREM', dayKey, ticket) end
    else
      if perMinute > 0 then redis.call('ZADD', minuteKey, 'XX', stamp, ticket) end
      if perDay > 0 then redis.call('ZADD', dayKey, 'XX', stamp, ticket) end
    end
    if concurrency > 0 then redis.call('ZREM', leasesKey, ticket) end
  end
end
`;

/** The release script's arguments, then the tickets of the attempts to end. */
export const releaseArgs: readonly ArgSpec[] = limitArgs;

/** Ends attempts when no acquire of this process came to carry them (see endAttempts). */
export const RELEASE_SCRIPT = `${luaPrologue(releaseArgs)}
${formatNumber}
${endAttempts}
local t = redis.call('TIME')
endAttempts(tonumber(t[1]) * 1000000 + tonumber(t[2]), ${releaseArgs.length + 1})
return 0
`;

/** `hold`: `pause` or `block`; `ms`: how long. */
export const holdArgs: readonly ArgSpec[] = [{ name: 'hold' }, { name: 'ms', number: true }];

/**
 * Holds every sharing client until Redis time + `ms`: a 429 pause or a daily-limit block, kept as the
 * Redis time (µs) it ends, expiring then. A later end wins; an earlier one changes nothing.
 */
export const HOLD_SCRIPT = `${luaPrologue(holdArgs)}
local key = pauseKey
if hold == 'block' then key = blockKey end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local ends = now + ms * 1000
if ends > tonumber(redis.call('GET', key) or '0') then
  redis.call('SET', key, string.format('%.0f', ends), 'PX', string.format('%.0f', ms))
end
return 0
`;

/** The stats script's arguments: the limits, to know which logs the quota keeps. */
export const statsArgs: readonly ArgSpec[] = limitArgs;

/**
 * What the quota holds now, read-only: {waiting, inFlight, startedLastMinute, startedToday, pauseMs,
 * blockMs}. In flight: the leases, or the window entries still scored by their lease end; the counts
 * of starts come from the logs the limits keep (0 without one).
 */
export const STATS_SCRIPT = `${luaPrologue(statsArgs)}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local after = '(' .. string.format('%.0f', now)
local function since(ms) return '(' .. string.format('%.0f', now - ms * 1000) end
local waiting = redis.call('ZCOUNT', lineExpiryKey, after, '+inf')
local log = nil
if perMinute > 0 then log = minuteKey elseif perDay > 0 then log = dayKey end
local inFlight = 0
if concurrency > 0 then
  inFlight = redis.call('ZCOUNT', leasesKey, after, '+inf')
elseif log then
  inFlight = redis.call('ZCOUNT', log, after, '+inf')
end
local lastMinute = 0
if log then lastMinute = redis.call('ZCOUNT', log, since(minuteMs), '+inf') end
local today = 0
if perDay > 0 then today = redis.call('ZCOUNT', dayKey, since(dayMs), '+inf') end
local holds = redis.call('MGET', pauseKey, blockKey)
local function left(hold) return math.max(0, math.ceil(((tonumber(hold or '0')) - now) / 1000)) end
return {waiting, inFlight, lastMinute, today, left(holds[1]), left(holds[2])}
`;
