/**
 * Fails when the committed translation catalogs are out of date with the source code: runs
 * `lingui extract --clean` on a temporary copy of the project and compares the resulting .po
 * files with src/locales (ignoring the extraction date), and that English and Arabic translate
 * every message (an empty msgstr would show French). Part of `npm run lint`.
 * Fix a failure with `flock /tmp/kiraa-i18n.lock npx lingui extract`, then translate.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import linguiConfig from '../lingui.config';

const root = resolve(import.meta.dirname, '..');
const sourceLocale = linguiConfig.sourceLocale;
const work = mkdtempSync(join(tmpdir(), 'kiraa-catalogs-'));

function normalize(po: string): string {
  return po.replace(/^"POT-Creation-Date: .*\\n"\n/m, '').trimEnd();
}

/** The messages a catalog leaves empty: one line `msgstr ""` with no continuation. */
function untranslated(po: string): string[] {
  const ids: string[] = [];
  for (const block of po.split(/\n\n/)) {
    if (/^#~/m.test(block)) continue;
    const m = /^msgid "((?:[^"\\]|\\.)+)"\nmsgstr ""$/m.exec(block);
    if (m?.[1] && !/^msgstr ""\n"/m.test(block)) ids.push(m[1]);
  }
  return ids;
}

function msgids(po: string): Set<string> {
  const ids = new Set<string>();
  for (const block of po.split(/\n\n/)) {
    if (/^#~/m.test(block)) continue;
    const m = /^msgid "((?:[^"\\]|\\.)*)"/m.exec(block);
    if (m?.[1]) ids.add(m[1]);
  }
  return ids;
}

try {
  cpSync(join(root, 'src'), join(work, 'src'), { recursive: true });
  for (const file of ['lingui.config.ts', 'package.json', 'tsconfig.json']) {
    cpSync(join(root, file), join(work, file));
  }
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  execFileSync(join(root, 'node_modules/.bin/lingui'), ['extract', '--clean'], {
    cwd: work,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });

  const problems: string[] = [];
  const locales = readdirSync(join(work, 'src/locales'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  for (const locale of locales) {
    const dir = join(work, 'src/locales', locale);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.po'))) {
      const committedPath = join(root, 'src/locales', locale, file);
      const fresh = readFileSync(join(dir, file), 'utf8');
      if (!existsSync(committedPath)) {
        problems.push(`src/locales/${locale}/${file} is missing`);
        continue;
      }
      const committed = readFileSync(committedPath, 'utf8');
      if (locale !== sourceLocale) {
        const empty = untranslated(committed);
        if (empty.length) {
          problems.push(
            [`src/locales/${locale}/${file} leaves ${empty.length} message(s) untranslated`]
              .concat(empty.slice(0, 5).map((id) => `  ? ${id}`))
              .join('\n'),
          );
        }
      }
      if (normalize(fresh) === normalize(committed)) continue;
      const before = msgids(committed);
      const after = msgids(fresh);
      const added = [...after].filter((id) => !before.has(id));
      const removed = [...before].filter((id) => !after.has(id));
      const lines = [`src/locales/${locale}/${file} is out of date`];
      for (const id of added.slice(0, 5)) lines.push(`  + ${id}`);
      for (const id of removed.slice(0, 5)) lines.push(`  - ${id}`);
      if (added.length + removed.length > 10) lines.push('  …');
      if (!added.length && !removed.length) lines.push('  (comments or origins changed)');
      problems.push(lines.join('\n'));
    }
  }
  if (problems.length) {
    console.error(problems.join('\n'));
    console.error(
      '\nThe catalogs do not match the code: run `flock /tmp/kiraa-i18n.lock npx lingui extract`,' +
        ' then translate the new messages (en, ar).',
    );
    process.exitCode = 1;
  } else {
    console.info('Translation catalogs are up to date.');
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
