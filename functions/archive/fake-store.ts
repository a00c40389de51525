/**
 * An in-memory archive with the same conditions as the DynamoDB one (store.test.ts runs one suite
 * against both), for the handlers' unit tests. `down` makes every call fail like an unreachable
 * table; `onCall` lets a test act between two steps. Only tests import this file.
 */
import { clipReason, EVENT_STATUS_FROM, type ArchivedMessage, type ArchiveStore } from './store';

export type ArchiveOperation = keyof ArchiveStore;

export class FakeArchive implements ArchiveStore {
  readonly items = new Map<string, ArchivedMessage>();
  readonly calls: ArchiveOperation[] = [];
  /** Operations that fail (all of them when true). */
  down: boolean | ReadonlySet<ArchiveOperation> = false;
  onCall?: (operation: ArchiveOperation) => Promise<void> | void;

  private async enter(operation: ArchiveOperation): Promise<void> {
    this.calls.push(operation);
    await this.onCall?.(operation);
    // A real round trip: concurrent callers interleave here, as they would against DynamoDB.
    await new Promise((resolve) => setImmediate(resolve));
    if (this.down === true || (this.down instanceof Set && this.down.has(operation))) {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8006'), { name: 'Error', code: 'ECONNREFUSED' });
    }
  }

  private copy(item: ArchivedMessage | undefined): ArchivedMessage | undefined {
    return item && structuredClone(item);
  }

  async put(message: ArchivedMessage): Promise<'created' | 'exists'> {
    await this.enter('put');
    if (this.items.has(message.id)) return 'exists';
    this.items.set(message.id, structuredClone(message));
    return 'created';
  }

  async get(id: string): Promise<ArchivedMessage | undefined> {
    await this.enter('get');
    return this.copy(this.items.get(id));
  }

  async claim(id: string, now: number, until: number): Promise<ArchivedMessage | undefined> {
    await this.enter('claim');
    const item = this.items.get(id);
    if (!item || item.status !== 'pending' || (item.claimedUntil !== undefined && item.claimedUntil >= now)) return undefined;
    item.claimedUntil = until;
    item.attempts += 1;
    return this.copy(item);
  }

  private settle(id: string, claim: number, change: Partial<ArchivedMessage>): boolean {
    const item = this.items.get(id);
    if (!item || item.claimedUntil !== claim) return false;
    Object.assign(item, change);
    delete item.claimedUntil;
    return true;
  }

  async markSent(id: string, claim: number, sesMessageId: string): Promise<boolean> {
    await this.enter('markSent');
    return this.settle(id, claim, { status: 'sent', sesMessageId });
  }

  async markFailed(id: string, claim: number, reason: string): Promise<boolean> {
    await this.enter('markFailed');
    return this.settle(id, claim, { status: 'failed', lastError: clipReason(reason) });
  }

  async release(id: string, claim: number, reason: string): Promise<boolean> {
    await this.enter('release');
    return this.settle(id, claim, { status: 'pending', lastError: clipReason(reason) });
  }

  async hold(id: string, claim: number, reason: string): Promise<boolean> {
    await this.enter('hold');
    const item = this.items.get(id);
    if (!item || item.claimedUntil !== claim) return false;
    item.lastError = clipReason(reason);
    return true;
  }

  async setEventStatus(id: string, status: Parameters<ArchiveStore['setEventStatus']>[1], detail: string | undefined): Promise<boolean> {
    await this.enter('setEventStatus');
    const item = this.items.get(id);
    if (!item || !EVENT_STATUS_FROM[status].includes(item.status)) return false;
    item.status = status;
    if (detail !== undefined) item.lastError = clipReason(detail);
    if (status !== 'sent') delete item.claimedUntil;
    return true;
  }

  async listPending(limit: number): Promise<ArchivedMessage[]> {
    await this.enter('listPending');
    return [...this.items.values()]
      .filter((item) => item.status === 'pending')
      .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt))
      .slice(0, limit)
      .map((item) => structuredClone(item));
  }
}
