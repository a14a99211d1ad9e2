import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router-dom';

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
  // While the router is leaving this page (a card was clicked and its screen loads), a late URL
  // write would be a new navigation that cancels the user's.
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const leaving = useRef(false);
  const target = navigation.location?.pathname;
  useEffect(() => {
    leaving.current = target !== undefined && target !== pathname;
  }, [target, pathname]);

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
      if (leaving.current) return;
      written.current.add(wanted);
      setParams(wanted, { replace: true, preventScrollReset: true });
    }, URL_WRITE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wanted, setParams]);

  const update = useCallback((patch: Partial<CarFilters>) => {
    setFilters((current) => ({ ...current, ...patch }));
  }, []);

  return [filters, update];
}
