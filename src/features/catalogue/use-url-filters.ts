import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import { UNSAFE_NavigationContext, useLocation, useSearchParams } from 'react-router-dom';

import { filtersToParams, parseFilters, type CarFilters } from '@/features/catalogue/filters';

const canonical = (filters: CarFilters) => filtersToParams(filters).toString();

/** Pause after the last change before the URL follows. */
export const URL_WRITE_DELAY_MS = 250;

/**
 * The filters of /cars, mirrored in the URL query (shareable, kept on reload).
 *
 * The screen renders from local state at once (a controlled input must change in its own
 * event); the URL follows a moment later, with `replace` so typing does not fill the history.
 * A URL that changes from outside (back/forward, a link) replaces the filters. The URLs this hook
 * wrote are remembered, so a late router update never undoes a faster keystroke.
 */
export function useUrlFilters(): [CarFilters, (patch: Partial<CarFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const urlKey = params.toString();
  const [filters, setFilters] = useState(() => parseFilters(params));
  const written = useRef(new Set<string>());
  const currentUrl = useRef(urlKey);
  // While the app is leaving this page (a card was clicked and its screen's chunk loads, the
  // router keeping this page on screen meanwhile), a late URL write would be a new navigation
  // that cancels the user's. The history knows where the app is going before React renders it.
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const { pathname } = useLocation();

  // The URL changed: ours (ignore) or from outside (follow it).
  useEffect(() => {
    currentUrl.current = urlKey;
    if (written.current.delete(urlKey)) return;
    written.current.clear();
    setFilters((current) =>
      canonical(current) === urlKey ? current : parseFilters(new URLSearchParams(urlKey)),
    );
  }, [urlKey]);

  // The filters changed: write them to the URL once the user pauses, so a keystroke costs one
  // render of the list and not also a router navigation.
  const wanted = canonical(filters);
  useEffect(() => {
    if (wanted === currentUrl.current) return;
    const timer = setTimeout(() => {
      const live = (navigator as { location?: { pathname: string } }).location?.pathname;
      if (live !== undefined && live !== pathname) return;
      written.current.add(wanted);
      setParams(wanted, { replace: true, preventScrollReset: true });
    }, URL_WRITE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wanted, setParams, navigator, pathname]);

  const update = useCallback((patch: Partial<CarFilters>) => {
    setFilters((current) => ({ ...current, ...patch }));
  }, []);

  return [filters, update];
}
