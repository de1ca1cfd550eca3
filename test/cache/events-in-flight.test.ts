// The events one request in flight saw, judged against its answer once it lands.
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import { EventsInFlight, maxEventsInFlight } from '../../src/cache/events-in-flight.js';

const listView = endpoints.journals.list.scoreEvent!;

const event = (journal_id: number, new_score: number) => ({
  event: 'score_updated' as const,
  journal_id,
  old_score: 1,
  new_score,
  quartile: 'Q1',
  timestamp: '2026-01-01T00:00:00Z',
});
const list = [
  { id: 1, metric_score: 10 },
  { id: 2, metric_score: 20 },
];

describe('EventsInFlight', () => {
  it('keeps an answer that shows every event, and judges a joiner only by the events before it joined', () => {
    const events = new EventsInFlight(listView, Date.now());
    events.add(event(99, 5));
    events.add(event(1, 10));
    const joinedAt = events.count;
    events.add(event(2, 21));
    expect(events.contradicts(list, joinedAt)).toBe(false);
    expect(events.contradicts(list)).toBe(true);
    expect(events.allowsKeeping(list)).toBe(false);
    expect(new EventsInFlight(listView, Date.now()).allowsKeeping(list)).toBe(true);
  });

  it('past its bound, counts the answer as contradicted', () => {
    const events = new EventsInFlight(listView, Date.now());
    for (let i = 0; i < maxEventsInFlight; i++) events.add(event(1_000 + i, 1));
    expect(events.allowsKeeping(list)).toBe(true);
    events.add(event(5_000_000, 1));
    expect(events.count).toBe(maxEventsInFlight + 1);
    expect(events.contradicts(list, maxEventsInFlight)).toBe(false);
    expect(events.allowsKeeping(list)).toBe(false);
  });
});
