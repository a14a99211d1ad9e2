// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

describe('linkify', () => {
  it('escapes the text and makes its links clickable', () => {
    expect(linkify('Reset: https://kiraa.dz/reset?token=a&b=1. <b>bye</b>')).toBe(
      'Reset: <a href="https://kiraa.dz/reset?token=a&amp;b=1" target="_blank" rel="noopener">https://kiraa.dz/reset?token=a&amp;b=1</a>. &lt;b&gt;bye&lt;/b&gt;',
    );
    expect(linkify('javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(escapeHtml(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;');
  });
});
