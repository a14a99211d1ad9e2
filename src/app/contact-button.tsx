import { Trans, useLingui } from '@lingui/react/macro';

import { CONTACT_LINES, formatPhone, whatsappUrl } from '@/infra/whatsapp';
import { cn } from '@/ui/cn';
import { ChatIcon, CloseIcon, WhatsAppIcon } from '@/ui/icons';
import { Popover } from '@/ui/popover';

/**
 * The floating messaging button (docs/product.md §1): a card with the three WhatsApp lines, each opening a
 * chat with its own number and a message in the UI language, in a new tab. `docked`: in the
 * page's flow instead of floating (on pages whose actions it would cover).
 */
export function ContactButton({ docked = false }: { docked?: boolean }) {
  const { t, i18n } = useLingui();
  return (
    <div
      data-docked={docked || undefined}
      className={
        docked
          ? 'relative'
          : 'fixed end-4 bottom-4 z-30 pb-[env(safe-area-inset-bottom)] sm:end-6 sm:bottom-6'
      }
    >
      <Popover
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
