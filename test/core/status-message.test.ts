import { describe, expect, it } from 'vitest';
import { describeStatus } from '../../src/core/status-message.js';

describe('describeStatus: the server explanation in the message', () => {
  const sortHelp = 'sort must be one of score, -score, title';
  const shapes: [string, unknown][] = [
    ['{"error": {"message"}}', { error: { status: 400, message: sortHelp } }],
    ['{"error": "…"}', { error: sortHelp }],
    ['{"message": …}', { message: sortHelp }],
    ['{"detail": …}', { detail: sortHelp }],
    [
      '{"detail": [{ "msg" }]} (FastAPI)',
      { detail: [{ loc: ['query', 'sort'], msg: sortHelp }, { msg: 'x' }] },
    ],
    ['{"title": …} (problem+json)', { type: 'about:blank', title: sortHelp, status: 400 }],
    ['a text body', sortHelp],
  ];
  for (const [shape, body] of shapes) {
    it(`takes it from ${shape}`, () => {
      expect(describeStatus(400, body)).toBe(`400 Bad Request: ${sortHelp}`);
    });
  }

  it('takes the first string in the order error.message, error, message, detail, title', () => {
    const body = { title: 't', detail: 'd', message: 'm', error: { message: 'e.m' } };
    expect(describeStatus(400, body)).toBe('400 Bad Request: e.m');
    expect(describeStatus(400, { title: 't', detail: 'd', message: 'm', error: 'e' })).toBe(
      '400 Bad Request: e',
    );
    expect(describeStatus(400, { title: 't', detail: 'd', message: 'm' })).toBe('400 Bad Request: m');
    expect(describeStatus(400, { title: 't', detail: 'd' })).toBe('400 Bad Request: d');
  });

  it('passes over a string that only names the error when a later one explains it', () => {
    const nest = { statusCode: 400, error: 'Bad Request', message: sortHelp };
    expect(describeStatus(400, nest)).toBe(`400 Bad Request: ${sortHelp}`);
    const coded = { error: 'not_found', message: 'No journal with id 7' };
    expect(describeStatus(404, coded)).toBe('404 Not Found: No journal with id 7');
    expect(describeStatus(404, { error: 'not_found' })).toBe('404 Not Found: not_found');
  });

  it('passes over values that are not strings, and says only the status when nothing is left', () => {
    expect(describeStatus(404, { error: { code: 7 }, message: ['a'], detail: null })).toBe('404 Not Found');
    expect(describeStatus(503, null)).toBe('503 Service Unavailable');
    expect(describeStatus(418, [sortHelp])).toBe('418 Error');
    expect(describeStatus(422, { detail: [] })).toBe('422 Error');
    expect(describeStatus(422, { detail: [null, { msg: 'later' }] })).toBe('422 Error');
    expect(describeStatus(422, { detail: ['text', { msg: 7 }] })).toBe('422 Error');
  });

  it('escapes control characters and cuts long explanations short', () => {
    const hostile = describeStatus(400, { error: { message: 'bad\u001b]52;c;aGk=\u0007 input' } });
    expect(hostile).not.toContain('\u001b');
    expect(hostile).not.toContain('\u0007');
    const long = describeStatus(400, { error: { message: 'x'.repeat(1000) } });
    expect(long.length).toBeLessThan(250);
    expect(long.endsWith('…')).toBe(true);
  });

  it('cuts a long explanation between characters, never inside a surrogate pair', () => {
    // The emoji's two UTF-16 units fall on either side of the cut.
    const message = describeStatus(400, { error: { message: `${'q'.repeat(199)}😀 is not a valid sort` } });
    expect(() => encodeURIComponent(message)).not.toThrow();
    expect(message).toBe(`400 Bad Request: ${'q'.repeat(199)}…`);
    const whole = describeStatus(400, { error: { message: `${'q'.repeat(198)}😀 is not a valid sort` } });
    expect(whole).toBe(`400 Bad Request: ${'q'.repeat(198)}😀…`);
  });
});
