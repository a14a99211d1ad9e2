// @vitest-environment node
import { describe, expect, it } from 'vitest';

import { parseAnswer } from './scale-load.ts';

const text = (s: string) => Buffer.from(s, 'latin1');

describe('parseAnswer (the scale bench reading the gateway on a raw socket)', () => {
  it('reads an answer by its Content-Length, and waits for the rest of its body', () => {
    const whole = text('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: json\r\n\r\nhello');
    expect(parseAnswer(whole.subarray(0, 20))).toBeNull();
    expect(parseAnswer(whole.subarray(0, whole.length - 1))).toBeNull();
    const parsed = parseAnswer(Buffer.concat([whole, text('HTTP/1.1 204')]))!;
    expect(parsed.answer).toMatchObject({ status: 200, close: false });
    expect(parsed.answer.body.toString()).toBe('hello');
    expect(parsed.used).toBe(whole.length);
  });

  it('reads a chunked answer to its last chunk, and sees Connection: close', () => {
    const whole = text(
      'HTTP/1.1 400 Bad Request\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n' +
        '4\r\n{"co\r\nc\r\nde":"P0001"}\r\n0\r\n\r\n',
    );
    for (const cut of [30, whole.length - 3, whole.length - 1]) {
      expect(parseAnswer(whole.subarray(0, cut))).toBeNull();
    }
    const parsed = parseAnswer(whole)!;
    expect(parsed.answer).toMatchObject({ status: 400, close: true });
    expect(JSON.parse(parsed.answer.body.toString())).toEqual({ code: 'P0001' });
    expect(parsed.used).toBe(whole.length);
  });

  it('takes a 204 without a length as empty, and refuses what is not HTTP', () => {
    const parsed = parseAnswer(text('HTTP/1.1 204 No Content\r\nX: y\r\n\r\n'))!;
    expect(parsed.answer.status).toBe(204);
    expect(parsed.answer.body.length).toBe(0);
    expect(() => parseAnswer(text('SSH-2.0-OpenSSH\r\n\r\n'))).toThrow(/not an HTTP answer/);
    expect(() => parseAnswer(text('HTTP/1.1 200 OK\r\n\r\n'))).toThrow(/without a length/);
  });
});
