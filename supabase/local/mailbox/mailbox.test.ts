// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { escapeHtml, linkify, Mailbox } from './mailbox.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('Mailbox', () => {
  it('lists newest first, filters by recipient whatever the case, and survives a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiraa-mail-'));
    dirs.push(dir);
    const file = join(dir, 'mail.json');
    const box = new Mailbox(file);
    await box.send({ to: 'a@kiraa.test', subject: 'first', text: '1' });
    await box.send({ to: 'B@kiraa.test', subject: 'second', text: '2' });
    await box.send({ to: 'a@kiraa.test', subject: 'third', text: '3' });
    expect(box.list().map((m) => m.subject)).toEqual(['third', 'second', 'first']);
    expect(box.list('A@KIRAA.TEST').map((m) => m.subject)).toEqual(['third', 'first']);
    await box.flushed();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(3);

    const reopened = new Mailbox(file);
    expect(reopened.list('b@kiraa.test').map((m) => m.subject)).toEqual(['second']);
    await reopened.clear();
    expect(new Mailbox(file).list()).toEqual([]);
  });

  it('keeps a mail listed when its file cannot be written, and writes again at the next mail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiraa-mail-'));
    dirs.push(dir);
    const blocker = join(dir, 'blocker');
    writeFileSync(blocker, 'not a folder');
    const box = new Mailbox(join(blocker, 'mail.json'));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await box.send({ to: 'a@kiraa.test', subject: 'first', text: '1' });
    await box.flushed();
    expect(box.list().map((m) => m.subject)).toEqual(['first']);
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^dev mailbox: .* not written: /));
    rmSync(blocker);
    await box.send({ to: 'a@kiraa.test', subject: 'second', text: '2' });
    await box.flushed();
    expect(JSON.parse(readFileSync(join(blocker, 'mail.json'), 'utf8'))).toHaveLength(2);
    errors.mockRestore();
  });

  it('refuses a mail without recipient or subject', async () => {
    await expect(new Mailbox(null).send({ to: '', subject: 'x', text: '' })).rejects.toThrow(
      /recipient/,
    );
  });
});

describe('the mailbox as the mail provider (Resend’s API)', () => {
  async function provider() {
    const box = new Mailbox(null);
    box.apiKey = 're_local';
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://mailbox');
      void box.handle(req, res, url.pathname, url);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer re_local',
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    return { box, post, close: () => new Promise((resolve) => server.close(resolve)) };
  }
  const mail = (to: string) => ({ from: 'Kiraa <a@kiraa.test>', to: [to], subject: to, text: 'x' });

  it('sends a batch in one request; one bad mail refuses it all, unless validation is permissive', async () => {
    const { box, post, close } = await provider();
    try {
      const batch = [mail('one@kiraa.test'), mail('not an address'), mail('three@kiraa.test')];
      const strict = await post('/api/emails/batch', batch);
      expect(strict.status).toBe(422);
      expect(strict.body).toMatchObject({ name: 'validation_error', message: /^emails\[1\]: / });
      expect(box.list()).toHaveLength(0);

      const permissive = await post('/api/emails/batch', batch, {
        'x-batch-validation': 'permissive',
      });
      expect(permissive.status).toBe(200);
      const stored = box.list().reverse();
      expect(stored.map((m) => m.to)).toEqual(['one@kiraa.test', 'three@kiraa.test']);
      expect(permissive.body).toEqual({
        data: stored.map((m) => ({ id: m.id })),
        errors: [{ index: 1, message: 'Invalid `to` field.' }],
      });

      expect((await post('/api/emails/batch', [])).status).toBe(422);
      expect((await post('/api/emails/batch', Array(101).fill(mail('x@kiraa.test')))).status).toBe(
        422,
      );
      expect((await post('/api/emails/batch', mail('x@kiraa.test'))).status).toBe(422);
    } finally {
      await close();
    }
  });

  it('answers a batch sent again under its key as the first time, and stores nothing; another batch under that key is refused', async () => {
    const { box, post, close } = await provider();
    try {
      const batch = [mail('a@kiraa.test'), mail('b@kiraa.test')];
      const key = { 'idempotency-key': 'kiraa-mail-batch-1' };
      const first = await post('/api/emails/batch', batch, key);
      const again = await post('/api/emails/batch', batch, key);
      expect(again).toEqual(first);
      expect(box.list()).toHaveLength(2);

      const other = await post('/api/emails/batch', [mail('a@kiraa.test')], key);
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({ name: 'invalid_idempotent_request' });
      // A single mail is another request, even with the same body.
      expect((await post('/api/emails', batch[0], key)).status).toBe(409);
      expect(box.list()).toHaveLength(2);
    } finally {
      await close();
    }
  });
});

describe('linkify', () => {
  it('escapes the text and makes its links clickable', () => {
    expect(linkify('Reset: https://kiraa.dz/reset?token=a&b=1. <b>bye</b>')).toBe(
      'Reset: <a href="https://kiraa.dz/reset?token=a&amp;b=1" target="_blank" rel="noopener">https://kiraa.dz/reset?token=a&amp;b=1</a>. &lt;b&gt;bye&lt;/b&gt;',
    );
    expect(linkify('javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(escapeHtml(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;');
  });
});
