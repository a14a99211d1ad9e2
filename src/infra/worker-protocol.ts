/**
 * What the service worker (src/sw.ts) and the pages say to each other, and the tag of its news
 * check. A module of its own, without code: the shell imports it.
 */

/** Worker → page: news arrived (refresh now). */
export const NEWS_MESSAGE = 'kiraa-news';
/** Worker → page: open this URL (a notification was clicked). */
export const OPEN_MESSAGE = 'kiraa-open';
/** The service worker's tag of the news check (Background Sync and Periodic Background Sync). */
export const NEWS_CHECK_TAG = 'kiraa-news-check';
/**
 * Page → worker: `{ type, urls }`, the car pictures the page showed before the worker controlled
 * it (src/infra/picture-urls.ts); the worker stores them in its pictures cache.
 */
export const CACHE_PICTURES_MESSAGE = 'kiraa-cache-pictures';
/**
 * Page → worker: `{ type, locale }`, the app's language on each start and at each switch; the
 * worker answers navigations with that language's document and shows pushes in it (src/sw.ts).
 */
export const LOCALE_MESSAGE = 'kiraa-locale';
