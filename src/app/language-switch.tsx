import { useLingui } from '@lingui/react/macro';

import { isLocale, localeNames, locales } from '@/domain/locale';
import { setLocale } from '@/infra/i18n';
import { cn } from '@/ui/cn';
import { DropdownMenu, MenuItem } from '@/ui/dropdown-menu';
import { ChevronDownIcon, GlobeIcon } from '@/ui/icons';

/** Offers French, English and Arabic; the choice is kept for the next visits. */
export function LanguageSwitch() {
  const { t, i18n } = useLingui();
  const current = isLocale(i18n.locale) ? i18n.locale : 'fr';
  const currentName = localeNames[current];
  return (
    <DropdownMenu
      label={t`Langue`}
      triggerLabel={t`Langue : ${currentName}`}
      triggerTestId="language-switch"
      triggerClassName={cn(
        'inline-flex h-10 items-center gap-1 rounded-lg px-2 text-sm font-medium text-fg',
        'hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
      )}
      triggerContent={
        <>
          <GlobeIcon />
          <span className="uppercase" aria-hidden="true" dir="ltr">
            {current}
          </span>
          <ChevronDownIcon size={16} className="hidden xs:block" />
        </>
      }
    >
      {({ close }) =>
        locales.map((locale) => (
          <MenuItem
            key={locale}
            lang={locale}
            checked={locale === current}
            onSelect={() => {
              close();
              void setLocale(locale);
            }}
          >
            {localeNames[locale]}
          </MenuItem>
        ))
      }
    </DropdownMenu>
  );
}
