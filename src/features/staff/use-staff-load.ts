import { useCallback, useEffect, useState } from 'react';

import type { StaffResult } from '@/features/staff/staff-call';
import type { LoadError } from '@/features/staff/use-staff-board';

/**
 * A staff screen's list, asked for while online and again on `reload()` (after a save); offline,
 * the last answer stays on screen. `load` must be stable (a module's function).
 */
export function useStaffLoad<T>(
  load: () => Promise<StaffResult<T>>,
  online: boolean,
): { data: T | null; error: LoadError | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<LoadError | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void load().then((result) => {
      if (!live) return;
      if (result.ok) {
        setData(result.data);
        setError(null);
      } else setError({ code: result.code, offline: result.offline });
    });
    return () => {
      live = false;
    };
  }, [load, online, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, reload };
}
