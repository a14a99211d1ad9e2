import { Trans, useLingui } from '@lingui/react/macro';
import { type RefObject, useEffect, useRef, useState } from 'react';

import { CONTACT_LINES, formatPhone, whatsappUrl } from '@/infra/whatsapp';
import { cn } from '@/ui/cn';
import { ChatIcon, CloseIcon, WhatsAppIcon } from '@/ui/icons';
import { Popover } from '@/ui/popover';

/** What a person may press or type in: the floating button must never be over one. */
/** Elements the button never floats over for long: notices that go by themselves, closed parts. */
const PASSING = '[data-testid="toast"], [hidden], [inert]';

/** Buttons: their label must stay readable. */
const BUTTON = 'button, [role="button"]';

/** Fields show what is typed across their whole box. */
const FIELD = 'input, select, textarea';

const CONTROL =
  'a[href], button, input, select, textarea, label, summary, [role="button"], [tabindex]:not([tabindex="-1"])';

/**
 * Whether the button covers a control of the page now: a field (input, select, textarea) whose
 * box meets the button's; any other control whose centre or a point half-way to a corner lies
 * under it; a button whose label's words do (a tall button at large text). A wide row or link
 * whose far end only passes under it is not covered: the button does not vanish over every list.
 * Its own card, hidden controls and toasts aside.
 */
export function controlUnder(trigger: HTMLElement, own: HTMLElement): boolean {
  const r = trigger.getBoundingClientRect();
  if (r.width === 0) return false;
  const m = 4;
  const meets = (c: { left: number; right: number; top: number; bottom: number }) =>
    c.right >= r.left - m &&
    c.left <= r.right + m &&
    c.bottom >= r.top - m &&
    c.top <= r.bottom + m;
  const inside = (x: number, y: number) =>
    x >= r.left - m && x <= r.right + m && y >= r.top - m && y <= r.bottom + m;
  for (const el of document.querySelectorAll<HTMLElement>(CONTROL)) {
    if (own.contains(el) || el.closest(PASSING)) continue;
    const c = el.getBoundingClientRect();
    if (c.width === 0 || c.height === 0 || !meets(c)) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    if (el.matches(FIELD)) return true;
    const x = c.left + c.width / 2;
    const y = c.top + c.height / 2;
    const dx = c.width / 4;
    const dy = c.height / 4;
    const points = [
      [x, y],
      [x - dx, y - dy],
      [x + dx, y - dy],
      [x - dx, y + dy],
      [x + dx, y + dy],
    ];
    if (points.some(([px, py]) => inside(px!, py!))) return true;
    // A button's label under it (a tall button at large text); not a row's or a link's words,
    // which run to the screen's edge in every list.
    if (!el.matches(BUTTON)) continue;
    const words = document.createRange();
    words.selectNodeContents(el);
    if (Array.from(words.getClientRects()).some((line) => line.width > 0 && meets(line))) {
      return true;
    }
  }
  return false;
}

/**
 * The floating button steps aside (fades out, cannot be hit) while a control of the page is
 * under it, and comes back once it is clear: checked after scrolls, resizes and changes of the
 * page, once per frame, and applied in that same frame as `data-aside` on the wrapper (no React
 * render per scroll). It stays while its card is open or it has the focus.
 */
function useStepAside(
  wrapper: RefObject<HTMLDivElement | null>,
  enabled: boolean,
  keep: boolean,
): void {
  const keepRef = useRef(keep);
  useEffect(() => {
    keepRef.current = keep;
    if (keep) wrapper.current?.removeAttribute('data-aside');
  }, [keep, wrapper]);
  useEffect(() => {
    if (!enabled) return;
    let frame = 0;
    const check = () => {
      frame = 0;
      const own = wrapper.current;
      const trigger = own?.querySelector<HTMLElement>('[data-testid="contact-button"]');
      if (!own || !trigger) return;
      const keepIt = keepRef.current || own.contains(document.activeElement);
      if (!keepIt && controlUnder(trigger, own)) own.setAttribute('data-aside', 'true');
      else own.removeAttribute('data-aside');
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    schedule();
    window.addEventListener('scroll', schedule, { passive: true, capture: true });
    window.addEventListener('resize', schedule);
    document.addEventListener('focusin', schedule);
    // Pictures and fonts that arrive move the page without a change of its elements.
    document.addEventListener('load', schedule, true);
    void document.fonts?.ready.then(schedule);
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    // Anything else that moves the page (an animation ending): a look twice a second.
    const timer = window.setInterval(schedule, 500);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
      document.removeEventListener('focusin', schedule);
      document.removeEventListener('load', schedule, true);
      observer.disconnect();
      window.clearInterval(timer);
    };
  }, [enabled, wrapper]);
}

/**
 * The floating messaging button (docs/product.md §1): a card with the three WhatsApp lines, each opening a
 * chat with its own number and a message in the UI language, in a new tab. `docked`: in the
 * page's flow instead of floating (on pages whose actions it would cover). Floating, it steps
 * aside while a control of the page is under it (`useStepAside`).
 */
export function ContactButton({ docked = false }: { docked?: boolean }) {
  const { t, i18n } = useLingui();
  const wrapper = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  useStepAside(wrapper, !docked, open);
  return (
    <div
      ref={wrapper}
      data-docked={docked || undefined}
      data-floating-contact={docked ? undefined : ''}
      className={
        docked
          ? 'relative'
          : cn(
              // Out of the way at once (`invisible` is not animated), back with a fade.
              'fixed end-4 bottom-4 z-30 pb-[env(safe-area-inset-bottom)] transition-opacity duration-150 sm:end-6 sm:bottom-6 motion-reduce:transition-none',
              // No movement: the box it checks against stays where it is drawn.
              'data-aside:invisible data-aside:opacity-0',
            )
      }
    >
      <Popover
        onOpenChange={setOpen}
        placement="top"
        align="end"
        panelLabel={t`Contactez-nous sur WhatsApp`}
        panelClassName="w-[min(20rem,calc(100vw-2rem))] p-3"
        triggerTestId="contact-button"
        triggerLabel={(open) => (open ? t`Fermer les contacts` : t`Nous contacter`)}
        triggerClassName={cn(
          'flex size-14 items-center justify-center rounded-full bg-whatsapp text-white shadow-lg',
          'hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        )}
        triggerContent={(open) => (open ? <CloseIcon size={24} /> : <ChatIcon size={26} />)}
      >
        {() => (
          <div data-testid="contact-card">
            <p className="px-1 pb-2 font-semibold">
              <Trans>Contactez-nous sur WhatsApp</Trans>
            </p>
            <ul className="flex flex-col gap-1">
              {CONTACT_LINES.map((line) => (
                <li key={line.key}>
                  <a
                    href={whatsappUrl(line.phone, i18n._(line.message))}
                    target="_blank"
                    rel="noopener noreferrer"
                    data-line={line.key}
                    className="flex items-center gap-3 rounded-lg p-2 hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    <span className="flex size-10 items-center justify-center rounded-full bg-whatsapp text-white">
                      <WhatsAppIcon />
                    </span>
                    <span className="flex flex-col">
                      <span className="font-medium">{i18n._(line.title)}</span>
                      <span className="text-sm text-fg-muted">
                        <bdi dir="ltr">{formatPhone(line.phone)}</bdi>
                      </span>
                    </span>
                    <span className="sr-only">
                      <Trans>(s’ouvre dans un nouvel onglet)</Trans>
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
      </Popover>
    </div>
  );
}
