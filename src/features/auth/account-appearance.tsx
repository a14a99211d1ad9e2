import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

import { saveAccountTheme } from '@/features/auth/auth-api';
import { AccountSection } from '@/features/auth/account-parts';
import {
  getTheme,
  MODE_SETTINGS,
  setModeSetting,
  setThemeSchema,
  THEME_SCHEMAS,
  useTheme,
  type ModeSetting,
  type ThemeSchema,
} from '@/infra/theme';
import { cn } from '@/ui/cn';

const schemaNames: Record<ThemeSchema, MessageDescriptor> = {
  default: msg`Bleu (par défaut)`,
  green: msg`Vert`,
  purple: msg`Violet`,
  orange: msg`Orange`,
};

const modeNames: Record<ModeSetting, MessageDescriptor> = {
  light: msg`Clair`,
  dark: msg`Sombre`,
  system: msg`Comme l'appareil`,
};

/** The swatch of each colour theme: its primary (src/styles.css). */
const swatches: Record<ThemeSchema, string> = {
  default: 'bg-[#1d4ed8]',
  green: 'bg-[#15803d]',
  purple: 'bg-[#7e22ce]',
  orange: 'bg-[#c2410c]',
};

const optionClass = (checked: boolean) =>
  cn(
    'flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm',
    'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
    checked ? 'border-primary bg-primary-soft font-semibold' : 'border-line',
  );

/**
 * Colour theme × light / dark / the device's mode (docs/ui.md, "Theme"): applied at once, kept on
 * this device (localStorage `theme`, applied before the first paint by index.html) and with the
 * account (user metadata `theme`, adopted at the next sign-in elsewhere).
 */
export function AppearanceSection() {
  const { i18n } = useLingui();
  const theme = useTheme();
  const persist = () => {
    const now = getTheme();
    void saveAccountTheme({ schema: now.themeSchema, mode: now.modeSetting });
  };
  return (
    <AccountSection id="appearance" title={<Trans>Apparence</Trans>}>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">
          <Trans>Couleur</Trans>
        </legend>
        <div className="grid grid-cols-1 gap-2 xs:grid-cols-2">
          {THEME_SCHEMAS.map((schema) => (
            <label key={schema} className={optionClass(theme.themeSchema === schema)}>
              <input
                type="radio"
                name="theme-schema"
                value={schema}
                data-testid={`theme-schema-${schema}`}
                checked={theme.themeSchema === schema}
                onChange={() => {
                  setThemeSchema(schema);
                  persist();
                }}
                className="size-4 accent-[var(--k-primary)]"
              />
              <span aria-hidden="true" className={cn('size-5 rounded-full', swatches[schema])} />
              {i18n._(schemaNames[schema])}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">
          <Trans>Mode</Trans>
        </legend>
        <div className="grid grid-cols-1 gap-2 xs:grid-cols-3">
          {MODE_SETTINGS.map((mode) => (
            <label key={mode} className={optionClass(theme.modeSetting === mode)}>
              <input
                type="radio"
                name="theme-mode"
                value={mode}
                data-testid={`theme-mode-${mode}`}
                checked={theme.modeSetting === mode}
                onChange={() => {
                  setModeSetting(mode);
                  persist();
                }}
                className="size-4 accent-[var(--k-primary)]"
              />
              {i18n._(modeNames[mode])}
            </label>
          ))}
        </div>
      </fieldset>
    </AccountSection>
  );
}
