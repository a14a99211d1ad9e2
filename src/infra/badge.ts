/** The app icon's badge: the unread count, cleared at zero (Badging API, where it exists). */
export function setAppBadge(count: number): void {
  const nav = (typeof navigator === 'undefined' ? undefined : navigator) as
    | (Navigator & {
        setAppBadge?: (n?: number) => Promise<void>;
        clearAppBadge?: () => Promise<void>;
      })
    | undefined;
  if (!nav?.setAppBadge) return;
  const done = count > 0 ? nav.setAppBadge(count) : (nav.clearAppBadge?.() ?? nav.setAppBadge(0));
  void done.catch(() => undefined);
}
