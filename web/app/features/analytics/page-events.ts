import { useEffect, useRef } from 'react';
import { queuePageEvent } from './analytics-loader';

/**
 * Sends the page's analytics event once per mount and again when the name changes (a project
 * page showing another project); a project page passes its title, sent as `project_title`. It sends
 * only with stored consent and a configured measurement id; the analytics code is fetched only then.
 * The ref keeps React's development double-run of effects from sending twice.
 */
export function usePageEvent(name: string, projectTitle?: string): void {
  const lastSent = useRef<string | null>(null);
  useEffect(() => {
    if (lastSent.current === name) return;
    lastSent.current = name;
    queuePageEvent(name, projectTitle);
  }, [name, projectTitle]);
}
