import { IANAZone, Zone, type ZoneOffsetFormat, type ZoneOffsetOptions } from "luxon";

const BUCKET_MS = 15 * 60 * 1000;
const MAX_CACHED_BUCKETS = 500_000;
const RECENT_SLOTS = 4096;

const pad = (value: number) => String(value).padStart(2, "0");

/**
 * An IANA zone whose UTC offsets are memoised per 15-minute span. Luxon asks Intl
 * for the offset on every call (formatToParts, ~20 µs); a sync maps millions of
 * date-times. A span is cached only when its offset is the same at both ends, so
 * instants next to a transition (even historic ones at odd seconds) stay exact.
 */
class CachedIanaZone extends Zone {
  readonly #inner: IANAZone;
  readonly #offsets = new Map<number, number>();
  // A direct-mapped table in front of the map (slot = bucket mod RECENT_SLOTS): placing one wall time asks for the
  // offset of the same few spans up to eight times, and a lookup in a map of many thousand spans is the slower part.
  readonly #recentBuckets = new Float64Array(RECENT_SLOTS).fill(Number.NaN);
  readonly #recentOffsets = new Float64Array(RECENT_SLOTS);

  constructor(name: string) {
    super();
    this.#inner = IANAZone.create(name);
  }

  override get type() {
    return "iana";
  }

  override get name() {
    return this.#inner.name;
  }

  override get isUniversal() {
    return false;
  }

  override get isValid() {
    return this.#inner.isValid;
  }

  override offsetName(ts: number, options: ZoneOffsetOptions) {
    return this.#inner.offsetName(ts, options);
  }

  override offset(ts: number): number {
    const bucket = Math.floor(ts / BUCKET_MS);
    const slot = bucket & (RECENT_SLOTS - 1);
    if (this.#recentBuckets[slot] === bucket) return this.#recentOffsets[slot]!;
    let offset = this.#offsets.get(bucket);
    if (offset === undefined) {
      const start = this.#inner.offset(bucket * BUCKET_MS);
      const end = this.#inner.offset((bucket + 1) * BUCKET_MS - 1);
      if (start !== end) return this.#inner.offset(ts);
      if (this.#offsets.size >= MAX_CACHED_BUCKETS) this.#offsets.clear();
      this.#offsets.set(bucket, start);
      offset = start;
    }
    this.#recentBuckets[slot] = bucket;
    this.#recentOffsets[slot] = offset;
    return offset;
  }

  override formatOffset(ts: number, format: ZoneOffsetFormat): string {
    const offset = this.offset(ts);
    const sign = offset < 0 ? "-" : "+";
    const hours = Math.trunc(Math.abs(offset) / 60);
    const minutes = Math.trunc(Math.abs(offset) % 60);
    if (format === "narrow") return `${sign}${hours}${minutes > 0 ? `:${minutes}` : ""}`;
    if (format === "techie") return `${sign}${pad(hours)}${pad(minutes)}`;
    return `${sign}${pad(hours)}:${pad(minutes)}`;
  }

  override equals(other: Zone): boolean {
    return other.type === "iana" && other.name === this.name;
  }
}

const zones = new Map<string, CachedIanaZone>();

/** The process-wide cached zone for an IANA name (callers check the name with isTimeZone first). */
export function cachedZone(name: string): Zone {
  let zone = zones.get(name);
  if (!zone) {
    zone = new CachedIanaZone(name);
    zones.set(name, zone);
  }
  return zone;
}
