import { useLingui } from '@lingui/react/macro';

import { toggleThemeMode, useTheme } from '@/infra/theme';
import { IconButton } from '@/ui/button';
import { MoonIcon, SunIcon } from '@/ui/icons';

/** Switches between the light and the dark theme (kept under localStorage `theme`). */
export function ThemeSwitch() {
  const { t } = useLingui();
  const { mode } = useTheme();
  const dark = mode === 'dark';
  return (
    <IconButton
      data-testid="theme-switch"
      label={dark ? t`Passer au thème clair` : t`Passer au thème sombre`}
      icon={dark ? <SunIcon /> : <MoonIcon />}
      onClick={toggleThemeMode}
    />
  );
}
