import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

import { keepRunning } from '@/infra/background';
import { NEWS_MESSAGE, OPEN_MESSAGE } from '@/infra/worker-protocol';

/**
 * The service worker's messages to this page (src/sw.ts): a notification was clicked → the app
 * opens that booking's page with its router (no reload); news arrived → the 'news' task runs
 * (it refreshes at once when it starts, and listens for later messages itself).
 */
export function WorkerMessages() {
  const navigate = useNavigate();
  useEffect(() => {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; url?: unknown } | null;
      if (data?.type === OPEN_MESSAGE && typeof data.url === 'string' && data.url.startsWith('/')) {
        navigate(data.url);
      } else if (data?.type === NEWS_MESSAGE) {
        keepRunning('news');
      }
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    // Messages wait until the page says it listens (automatic only for `onmessage`).
    navigator.serviceWorker.startMessages();
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, [navigate]);
  return null;
}
