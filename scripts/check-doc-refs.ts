/**
 * `npm run lint` (part): every reference resolves inside the repository.
 *
 * - `docs/<name>.md` anywhere (code comments, SQL, docs) names a file that exists;
 *   `docs/<name>.md, "<Section>"` names one of its headings (or the start of one); `docs/product.md §N` its section N;
 * - a path in backticks in README.md and docs/ (`src/…`, `supabase/…`, `scripts/…`, `tests/…`)
 *   exists (globs and placeholders such as `<f>` are skipped);
 * - nothing points outside the repository (the product brief and the contracts we were given are
 *   in docs/, in our words).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const TEXT = /\.(ts|tsx|js|mjs|md|sql|toml|json|html|css|yml|yaml)$|(^|\/)\.ci\/run$/;

type Problem = { file: string; line: number; text: string };

/** The headings of a markdown file, without their leading #'s, and their `§N` numbers. */
function headings(markdown: string): { titles: Set<string>; sections: Set<string> } {
  const titles = new Set<string>();
  const sections = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const title = match[1]!.replace(/`/g, '');
    titles.add(title);
    const number = /^§(\d+)/.exec(title);
    if (number) sections.add(number[1]!);
  }
  return { titles, sections };
}

/** Problems in one file's text (exported for the unit test). */
export function problemsIn(
  file: string,
  text: string,
  exists: (path: string) => boolean,
  readDoc: (path: string) => string | null,
): Problem[] {
  const problems: Problem[] = [];
  const lines = text.split('\n');
  const isDoc = file === 'README.md' || file.startsWith('docs/');
  lines.forEach((line, index) => {
    const at = (message: string) => problems.push({ file, line: index + 1, text: message });
    if (/\bSPEC(\.md)? ?§|\bARCHITECTURE\.md\b|\bSPEC\.md\b|\.\.\/shared\//.test(line)) {
      at(`points outside the repository: ${line.trim()}`);
    }
    for (const match of line.matchAll(/\bdocs\/([\w-]+)\.md(?:,? +"([^"]+)"| §(\d+))?/g)) {
      const path = `docs/${match[1]}.md`;
      const doc = readDoc(path);
      if (doc === null) {
        at(`${path} does not exist`);
        continue;
      }
      const { titles, sections } = headings(doc);
      // A heading may carry more after the name a reference uses: "Guest lookup (issues 13, 18)".
      if (match[2] && ![...titles].some((title) => title.startsWith(match[2]!))) {
        at(`${path} has no heading "${match[2]}"`);
      }
      if (match[3] && !sections.has(match[3])) at(`${path} has no section §${match[3]}`);
    }
    if (isDoc) {
      for (const match of line.matchAll(/`((?:src|supabase|scripts|tests)\/[^`\s]+)`/g)) {
        const path = match[1]!.replace(/[:#].*$/, '').replace(/\/$/, '');
        // Globs, placeholders, and files the reader creates (`.env`).
        if (/[*<>{}…]|\.\.\.|\/\.env/.test(path)) continue;
        if (!exists(path)) at(`${path} does not exist`);
      }
    }
  });
  return problems;
}

function main(script: string): void {
  const ROOT = resolve(dirname(script), '..');
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => TEXT.test(f) && !f.startsWith('src/locales/') && f !== 'package-lock.json')
    // The mirror is generated; this checker's own test holds broken references on purpose.
    .filter((f) => !f.startsWith('supabase/schema/') && f !== 'scripts/check-doc-refs.test.ts');
  const docs = new Map<string, string | null>();
  const readDoc = (path: string) => {
    if (!docs.has(path)) {
      docs.set(path, existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : null);
    }
    return docs.get(path)!;
  };
  const exists = (path: string) => existsSync(join(ROOT, path));
  const problems = files.flatMap((file) =>
    existsSync(join(ROOT, file))
      ? problemsIn(file, readFileSync(join(ROOT, file), 'utf8'), exists, readDoc)
      : [],
  );
  if (problems.length > 0) {
    for (const p of problems) console.error(`${p.file}:${p.line}: ${p.text}`);
    console.error(`\n${problems.length} reference(s) do not resolve.`);
    process.exit(1);
  }
  console.info(`Every reference resolves (${files.length} files read).`);
}

if (process.argv[1]?.endsWith('check-doc-refs.ts')) main(process.argv[1]);
