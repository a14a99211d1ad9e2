/**
 * In-memory sliding-window counters, one per key (an IP, an IP + email, an email). The local
 * stack is one process, so memory is the right place; a restart forgets the counts, as GoTrue's
 * own in-process limiter does.
 */
import type { Limit } from './options.ts';

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const SWEEP_EVERY_MS = 60_000;

export class SlidingWindowLimiter {
  private readonly events = new Map<string, number[]>();
  private lastSweep: number;

  constructor(
    private readonly limit: Limit,
    private readonly enabled = true,
    private readonly now: () => number = Date.now,
    /** Keys no limit applies to. */
    private readonly exempt: (key: string) => boolean = () => false,
  ) {
    this.lastSweep = now();
  }

  private recent(key: string, at: number): number[] {
    const since = at - this.limit.windowSeconds * 1000;
    const kept = (this.events.get(key) ?? []).filter((t) => t > since);
    if (kept.length === 0) this.events.delete(key);
    else this.events.set(key, kept);
    return kept;
  }

  private sweep(at: number): void {
    if (at - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = at;
    for (const key of [...this.events.keys()]) this.recent(key, at);
  }

  /** Whether one more event is allowed now, without recording it. */
  check(key: string): LimitDecision {
    if (!this.enabled || this.exempt(key)) return { allowed: true };
    const at = this.now();
    this.sweep(at);
    const recent = this.recent(key, at);
    if (recent.length < this.limit.max) return { allowed: true };
    // The window frees a slot when the oldest event that keeps it full falls out of it.
    const oldest = recent[recent.length - this.limit.max] ?? at;
    const retryAfterMs = oldest + this.limit.windowSeconds * 1000 - at;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }

  /** Records one event. */
  hit(key: string): void {
    if (!this.enabled || this.exempt(key)) return;
    const at = this.now();
    const recent = this.recent(key, at);
    recent.push(at);
    this.events.set(key, recent);
  }

  /** Checks and, when allowed, records the event in one step. */
  take(key: string): LimitDecision {
    const decision = this.check(key);
    if (decision.allowed) this.hit(key);
    return decision;
  }

  /** Forgets the events of a key (e.g. failed sign-ins once the right password is given). */
  reset(key: string): void {
    this.events.delete(key);
  }

  /** How many keys are tracked (to check that memory is given back). */
  get size(): number {
    return this.events.size;
  }
}
