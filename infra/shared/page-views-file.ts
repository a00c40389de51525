/**
 * Page views as the vitals function logs them in Lambda (its Powertools line: level, message,
 * service, timestamp and the pageView), one JSON line each appended to a file: `npm start` keeps
 * them in .local/page-views.jsonl, and `npm run visitors -- --local` reads what Logs Insights would.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_NAMES } from '../../contract/metrics';
import { PAGE_VIEW_LOG_MESSAGE, type VitalsBeacon } from '../../contract/vitals';

export function pageViewLogFile(file: string, now: () => Date = () => new Date()): (pageView: VitalsBeacon) => void {
  let made = false;
  return (pageView) => {
    if (!made) {
      mkdirSync(path.dirname(file), { recursive: true });
      made = true;
    }
    const line = { level: 'INFO', message: PAGE_VIEW_LOG_MESSAGE, timestamp: now().toISOString(), service: SERVICE_NAMES.vitals, pageView };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
}
