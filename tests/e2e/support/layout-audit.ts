/**
 * The layout audit's checks (tests/e2e/layout-audit.spec.ts), run inside the page on what it
 * shows now. Each finding is one line: `<where> [<check>] <what>`.
 *
 * - overflow: the document scrolls sideways, or a visible element reaches past the screen's
 *   edges (scroll containers and their content excepted: they scroll on purpose);
 * - clipped: a text element whose content is larger than its box and is cut off (an ellipsis
 *   is a deliberate truncation and passes);
 * - word-break: a word split across two lines (breaks at spaces, hyphens and slashes pass; a
 *   booking reference, KR-XXXX-XXXX, is one word: it is read out and copied whole);
 * - covered: the centre (or a point half-way to a corner) of a visible button, input, select or
 *   textarea hit-tests to another element (a floating button, the sticky header; not a toast,
 *   which goes by itself and can be closed), at the scroll positions where the
 *   page rests: its top, its bottom, and the control scrolled to the middle of the screen (a point
 *   scrolled away inside the control's own scroll box is not covered);
 * - cut: in a panel, a control taller than its scroll box while parts of the panel that do not
 *   scroll take space from the box: part of it always passes under them (issue 20: a
 *   notification under the bell panel's footer at 200 % text);
 * - under-header: a heading or focus target under the sticky header once it has the focus
 *   (walked backwards from the page's bottom, as Shift+Tab does) and after a step change;
 * - mixed-script: a text whose first strong letter runs the other way than its element (Latin in
 *   Arabic, Arabic in French or English) and that is not isolated (`dir` on an element of its
 *   own, `<bdi>`, or `unicode-bidi: plaintext`): the browser would lay it out
 *   backwards (".Amina L", "! Désolé"). User text is isolated where it is shown (docs/ui.md).
 */
import { expect, type Page } from '@playwright/test';

import { REFERENCE_PATTERN } from '../../../src/domain/reference.ts';

export type AuditOptions = {
  /** Check every focus target walking back from the bottom (default true). */
  focusWalk?: boolean;
  /** Check the hit-tests of controls (default true). */
  hitTests?: boolean;
};

/**
 * The browser's text size at `percent` (Chrome's Settings › Appearance › Font size, i.e. the
 * default font size of 16 px scaled; every `rem` and `em` of the app follows it, media queries
 * in `rem` too). Set through the DevTools protocol, as the setting itself does, for this page.
 */
export async function setTextSize(page: Page, percent: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', {
    fontSizes: {
      standard: Math.round(16 * (percent / 100)),
      fixed: Math.round(13 * (percent / 100)),
    },
  });
}

/**
 * Runs every check on the app's page as it is (once the app has replaced index.html's inert copy
 * of the first screen, docs/performance.md); returns the findings prefixed with `where`.
 */
export async function auditLayout(
  page: Page,
  where: string,
  options: AuditOptions = {},
): Promise<string[]> {
  await expect(page.locator('[data-first-screen]')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
  const findings = await page.evaluate(inPageAudit, {
    focusWalk: options.focusWalk ?? true,
    hitTests: options.hitTests ?? true,
    reference: REFERENCE_PATTERN,
  });
  return findings.map((finding) => `${where} ${finding}`);
}

/** The focused element and the headings in view sit below the sticky header. */
export async function auditFocusBelowHeader(page: Page, where: string): Promise<string[]> {
  const finding = await page.evaluate(() => {
    const header = document.querySelector('header');
    const bottom = header ? header.getBoundingClientRect().bottom : 0;
    const focused = document.activeElement as HTMLElement | null;
    if (!focused || focused === document.body) return 'nothing has the focus';
    const rect = focused.getBoundingClientRect();
    if (rect.top < bottom - 1) {
      const text = (focused.textContent ?? '').trim().slice(0, 40);
      return `<${focused.tagName.toLowerCase()}> "${text}" has the focus ${Math.round(bottom - rect.top)} px under the header`;
    }
    return null;
  });
  return finding ? [`${where} [under-header] ${finding}`] : [];
}

type InPageOptions = { focusWalk: boolean; hitTests: boolean; reference: string };

/** Serialised into the page: no closures over module scope. */
async function inPageAudit(options: InPageOptions): Promise<string[]> {
  const findings: string[] = [];
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const header = document.querySelector<HTMLElement>('body header');
  const headerBottom = () => (header ? Math.max(0, header.getBoundingClientRect().bottom) : 0);

  const describe = (el: Element): string => {
    const tag = el.tagName.toLowerCase();
    const testId = el.getAttribute('data-testid');
    const label = el.getAttribute('aria-label');
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `<${tag}${testId ? ` data-testid="${testId}"` : ''}>${label ? ` "${label}"` : text ? ` "${text}"` : ''}`;
  };
  const isVisible = (el: Element): boolean => {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    // A closed <details> shows only its summary: Chromium still gives the rest boxes.
    if (el.closest('details:not([open])') && !el.closest('summary')) return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 1 && rect.height > 1;
  };
  /** Screen-reader-only text (1 px boxes clipped on purpose). */
  const isSrOnly = (el: Element): boolean => {
    for (let node: Element | null = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.position === 'absolute' && node.getBoundingClientRect().width <= 1) return true;
      if (node.hasAttribute('hidden')) return true;
    }
    return false;
  };
  const scrolls = (value: string) => value === 'auto' || value === 'scroll';
  const root = document.body;

  // --- overflow -----------------------------------------------------------------------------
  if (document.documentElement.scrollWidth > vw + 1) {
    findings.push(
      `[overflow] the page scrolls sideways (${document.documentElement.scrollWidth} px for ${vw} px)`,
    );
  }
  const walk = (el: Element) => {
    if (!(el instanceof HTMLElement || el instanceof SVGSVGElement)) return;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') return;
    if (el instanceof HTMLElement && el.hidden) return;
    const rect = el.getBoundingClientRect();
    if (rect.width > 1 && rect.height > 1 && !isSrOnly(el)) {
      if (rect.left < -1 || rect.right > vw + 1) {
        findings.push(
          `[overflow] ${describe(el)} reaches past the screen (${Math.round(rect.left)}…${Math.round(rect.right)} px of ${vw})`,
        );
        return; // its children would only repeat it
      }
    }
    if (el instanceof SVGSVGElement) return;
    if (scrolls(style.overflowX)) return; // a scroll container: its content scrolls on purpose
    for (const child of Array.from(el.children)) walk(child);
  };
  walk(root);

  // --- clipped text and words broken mid-word -----------------------------------------------
  const textElements = new Set<HTMLElement>();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const brokenWords: string[] = [];
  // Words, a booking reference being one (it is read out and copied whole).
  const words = new RegExp(`${options.reference}|[^\\s\\-‐/–—]+`, 'g');
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue ?? '';
    if (!text.trim()) continue;
    const parent = node.parentElement;
    if (!parent || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TITLE', 'OPTION'].includes(parent.tagName)) {
      continue;
    }
    if (!isVisible(parent) || isSrOnly(parent)) continue;
    textElements.add(parent);
    const lineHeight = parseFloat(getComputedStyle(parent).fontSize) || 16;
    for (const match of text.matchAll(words)) {
      if (match[0].length < 2) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set<number>();
      for (const r of Array.from(range.getClientRects())) {
        if (r.width < 1) continue;
        tops.add(Math.round(r.top / (lineHeight * 0.6)));
      }
      if (tops.size > 1) brokenWords.push(`"${match[0]}" in ${describe(parent)}`);
    }
  }
  for (const word of new Set(brokenWords))
    findings.push(`[word-break] ${word} is split across lines`);

  for (const el of textElements) {
    const style = getComputedStyle(el);
    if (style.display.startsWith('inline') && style.display !== 'inline-block') continue;
    if (style.textOverflow === 'ellipsis' || style.webkitLineClamp !== 'none') continue;
    if (scrolls(style.overflowX) || scrolls(style.overflowY)) continue;
    const wide = el.scrollWidth > el.clientWidth + 1;
    const tall = el.scrollHeight > el.clientHeight + 1;
    const clips = (v: string) => v === 'hidden' || v === 'clip';
    if ((wide && clips(style.overflowX)) || (tall && clips(style.overflowY))) {
      findings.push(
        `[clipped] ${describe(el)} shows ${el.clientWidth}×${el.clientHeight} of ${el.scrollWidth}×${el.scrollHeight} px`,
      );
    } else if (wide && el.clientWidth > 0) {
      findings.push(
        `[clipped] ${describe(el)} spills out of its box (${el.scrollWidth} px in ${el.clientWidth})`,
      );
    }
  }

  // --- controls covered by another element --------------------------------------------------
  // With a panel open (a popover, a menu, a modal dialog), only its own controls can be used.
  const panel = Array.from(
    document.querySelectorAll<HTMLElement>(
      'dialog[open], [role="dialog"]:not([hidden]), [role="menu"]:not([hidden])',
    ),
  ).find(isVisible);
  const scope = panel ?? root;
  const controls = Array.from(
    scope.querySelectorAll<HTMLElement>('button, input, select, textarea, a[role="button"]'),
  ).filter(
    (el) =>
      isVisible(el) &&
      !isSrOnly(el) &&
      (panel !== undefined || !el.closest('header')) &&
      !el.closest('[data-testid="contact-card"]') &&
      el.getAttribute('data-testid') !== 'contact-button' &&
      !(el instanceof HTMLInputElement && el.type === 'hidden'),
  );
  const covered = new Map<HTMLElement, string>();
  // The floating contact button steps aside when it would cover a control (it follows scrolls
  // on the next frames): the hit-tests look once the page has settled.
  const settle = () =>
    new Promise<void>((done) =>
      requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))),
    );
  const floating = document.querySelector('[data-floating-contact]');
  // Controls found under the floating contact button before it could step aside (it follows on
  // the next frames): looked at again, at the same scroll position, once the page settled.
  const recheck = new Map<HTMLElement, number>();
  /**
   * What the scroll containers around `el` (up to the page) let be seen of it: a point outside is
   * scrolled away in its box, not covered.
   */
  const visibleBox = (el: HTMLElement) => {
    const box = { top: -Infinity, bottom: Infinity, left: -Infinity, right: Infinity };
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (!scrolls(style.overflowY) && !scrolls(style.overflowX)) continue;
      const r = node.getBoundingClientRect();
      box.top = Math.max(box.top, r.top);
      box.bottom = Math.min(box.bottom, r.bottom);
      box.left = Math.max(box.left, r.left);
      box.right = Math.min(box.right, r.right);
    }
    return box;
  };
  const hitTest = (settled = true, only?: HTMLElement) => {
    const top = headerBottom();
    for (const el of only ? [only] : controls) {
      if (covered.has(el)) continue;
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (y < top || y > vh || x < 0 || x > vw) continue; // its centre is not on the screen
      const clip = visibleBox(el);
      const shown = (px: number, py: number) =>
        py >= clip.top && py <= clip.bottom && px >= clip.left && px <= clip.right;
      if (!shown(x, y)) continue; // scrolled away inside its box
      // The centre, and four points half-way to the corners: a button half under another is
      // covered too (its label is).
      const points = [
        [x, y],
        [x - r.width / 4, y - r.height / 4],
        [x + r.width / 4, y - r.height / 4],
        [x - r.width / 4, y + r.height / 4],
        [x + r.width / 4, y + r.height / 4],
      ];
      for (const [px, py] of points) {
        if (py! < top || py! > vh || px! < 0 || px! > vw || !shown(px!, py!)) continue;
        const hit = document.elementFromPoint(px!, py!);
        // Its own content, or an ancestor (a control that lets clicks through, e.g. disabled).
        if (!hit || hit === el || el.contains(hit) || hit.contains(el)) continue;
        // Toasts pass: they go by themselves (5 s, paused while hovered) and can be closed.
        if (hit.closest('[data-testid="toast"]')) continue;
        // A label of the control passes the click on.
        const label = hit.closest('label');
        if (label && (label.control === el || label.contains(el))) continue;
        if (!settled && floating?.contains(hit)) {
          if (!recheck.has(el)) recheck.set(el, window.scrollY);
          break;
        }
        covered.set(el, describe(hit));
        break;
      }
    }
  };
  if (options.hitTests) {
    const start = window.scrollY;
    window.scrollTo(0, 0);
    await settle();
    hitTest();
    window.scrollTo(0, document.documentElement.scrollHeight);
    await settle();
    hitTest();
    for (const el of controls) {
      el.scrollIntoView({ block: 'center', inline: 'nearest' });
      hitTest(false);
    }
    for (const [el, y] of recheck) {
      window.scrollTo(0, y);
      await settle();
      hitTest(true, el);
    }
    window.scrollTo(0, start);
    for (const [el, by] of covered) findings.push(`[covered] ${describe(el)} is under ${by}`);
    // In a panel (a popover, a menu, a dialog), a control taller than the scroll box it is in,
    // while parts of the panel that do not scroll (its title row, its footer) take space from the
    // box: part of the control always passes under those parts.
    if (panel) {
      for (const el of controls) {
        let box: HTMLElement | null = el.parentElement;
        while (box && box !== panel) {
          const style = getComputedStyle(box);
          if (scrolls(style.overflowY)) break;
          box = box.parentElement;
        }
        if (!box || box === panel) continue;
        const boxHeight = box.getBoundingClientRect().height;
        const own = getComputedStyle(panel);
        const inner =
          panel.clientHeight - parseFloat(own.paddingTop) - parseFloat(own.paddingBottom);
        const fixedParts = inner - boxHeight;
        const height = el.getBoundingClientRect().height;
        if (height > boxHeight + 1 && fixedParts > 8) {
          findings.push(
            `[cut] ${describe(el)} is ${Math.round(height)} px high in a scroll box of ${Math.round(boxHeight)} px, beside ${Math.round(fixedParts)} px of the panel that do not scroll`,
          );
        }
      }
    }
  }

  // --- focus targets under the sticky header ------------------------------------------------
  if (options.focusWalk && header && getComputedStyle(header).position === 'sticky') {
    const main = document.querySelector('main') ?? root;
    const targets = Array.from(
      main.querySelectorAll<HTMLElement>(
        'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])',
      ),
    ).filter((el) => isVisible(el) && !isSrOnly(el) && !(el as HTMLButtonElement).disabled);
    const active = document.activeElement as HTMLElement | null;
    window.scrollTo(0, document.documentElement.scrollHeight);
    const seen = new Set<string>();
    for (const el of targets.reverse()) {
      el.focus({ preventScroll: false });
      if (document.activeElement !== el) continue;
      const r = el.getBoundingClientRect();
      const bottom = headerBottom();
      // A target taller than the space below the header cannot fit whole.
      if (r.height > vh - bottom) continue;
      if (r.top < bottom - 1) {
        const line = `[under-header] ${describe(el)} is ${Math.round(bottom - r.top)} px under the header when focused`;
        if (!seen.has(line)) findings.push(line);
        seen.add(line);
      }
    }
    if (active && active !== document.body) active.focus({ preventScroll: true });
    else (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  }

  // --- mixed scripts -------------------------------------------------------------------------
  // Strong letters, with the marks U+200E/U+200F (a formatted amount starts with one).
  const strong = /[A-Za-z\u00C0-\u024F\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200E\u200F]/;
  const rtlLetter = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200F]/;
  const rtlLetters = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/g;
  const ltrLetters = /[A-Za-z\u00C0-\u024F]/g;
  const isolated = (el: Element): boolean => {
    for (let node: Element | null = el; node && node !== document.body; node = node.parentElement) {
      if (node.tagName === 'BDI' || node.hasAttribute('dir')) return true;
      // Not `isolate`: the HTML rendering rules give it to every block, with the inherited
      // direction. `plaintext` takes the direction from the text, as dir="auto" does.
      if (getComputedStyle(node).unicodeBidi === 'plaintext') return true;
      // Inputs and their values: the browser lays out a field's own text.
      if (['INPUT', 'TEXTAREA', 'SELECT', 'OPTION'].includes(node.tagName)) return true;
    }
    return false;
  };
  const mixed = new Set<string>();
  const textWalker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = textWalker.nextNode(); node; node = textWalker.nextNode()) {
    // Text already isolated in the string itself (U+2066…U+2068 … U+2069, src/ui/bidi.ts) is
    // laid out on its own: only the rest counts.
    const text = (node.nodeValue ?? '').replace(/[\u2066-\u2068][^\u2069]*\u2069?/g, ' ').trim();
    const first = strong.exec(text)?.[0];
    const parent = node.parentElement;
    if (!first || !parent || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TITLE'].includes(parent.tagName)) {
      continue;
    }
    if (!isVisible(parent) || isSrOnly(parent)) continue;
    const runs = rtlLetter.test(first) ? 'rtl' : 'ltr';
    if (runs === getComputedStyle(parent).direction || isolated(parent)) continue;
    // A sentence of the UI's language that starts with a name ("© 2026 Kiraa. جميع…") is laid
    // out right: the text must be mostly of the other script.
    const other = (runs === 'rtl' ? text.match(rtlLetters) : text.match(ltrLetters))?.length ?? 0;
    const own = (runs === 'rtl' ? text.match(ltrLetters) : text.match(rtlLetters))?.length ?? 0;
    if (other <= own) continue;
    mixed.add(
      `[mixed-script] "${text.slice(0, 40)}" (${runs}) in ${describe(parent)} is not isolated`,
    );
  }
  findings.push(...mixed);
  return findings;
}
