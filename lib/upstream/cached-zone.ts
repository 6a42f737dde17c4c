import { IANAZone, Zone, type ZoneOffsetFormat, type ZoneOffsetOptions } from "luxon";

const SPAN_MS = 15 * 60 * 1000;
// Spans are filled a block of 8 (two hours) at a time: when a block's first and last instants have the same offset,
// so has every span in it (no zone changes its offset and back within two hours), which takes 2 Intl calls instead of 16.
// Before 1970, where the zone data holds local mean times and odd historic changes, spans are filled one by one.
const BLOCK_SPANS = 8;
const BLOCKS_FROM_SPAN = 0;
// Spans are cached in pages of 4096 (about six weeks), each a typed array found by page number: a few pages hold a
// year and a half of appointments, where a map of spans was a hash lookup (and a cache miss) per offset.
const PAGE_SPANS = 4096;
const MAX_CACHED_PAGES = 128;
const RECENT_PAGES = 8;
// A span not looked up yet, and one with a transition inside (whose offsets luxon gives instant by instant).
const UNKNOWN = Number.NaN;
const MIXED = Number.POSITIVE_INFINITY;

const pad = (value: number) => String(value).padStart(2, "0");

/**
 * An IANA zone whose UTC offsets are memoised per 15-minute span. Luxon asks Intl
 * for the offset on every call (formatToParts, ~20 µs); a sync maps millions of
 * date-times. A span is cached only when its offset is the same at both ends, so
 * instants next to a transition (even historic ones at odd seconds) stay exact.
 */
class CachedIanaZone extends Zone {
  readonly #inner: IANAZone;
  readonly #pages = new Map<number, Float64Array>();
  // The pages asked for last, by page number mod RECENT_PAGES: placing one wall time asks for the offsets of a few spans
  // of its own page and one of today's (luxon's first guess), so the map is seldom asked.
  readonly #recentPageNumbers = new Float64Array(RECENT_PAGES).fill(Number.NaN);
  readonly #recentPages: Float64Array[] = Array.from({ length: RECENT_PAGES }, () => new Float64Array(0));

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
    const span = Math.floor(ts / SPAN_MS);
    if (!Number.isFinite(span)) return this.#inner.offset(ts);
    const pageNumber = Math.floor(span / PAGE_SPANS);
    const slot = pageNumber & (RECENT_PAGES - 1);
    const page = this.#recentPageNumbers[slot] === pageNumber ? this.#recentPages[slot]! : this.#page(pageNumber, slot);
    const index = span - pageNumber * PAGE_SPANS;
    let offset = page[index]!;
    if (Number.isNaN(offset)) {
      this.#fill(page, pageNumber, span);
      offset = page[index]!;
    }
    return offset === MIXED ? this.#inner.offset(ts) : offset;
  }

  // Fills the span's block of the page (or the span alone before 1970).
  #fill(page: Float64Array, pageNumber: number, span: number): void {
    const first = pageNumber * PAGE_SPANS;
    if (span < BLOCKS_FROM_SPAN) {
      page[span - first] = this.#spanOffset(span);
      return;
    }
    const blockStart = span - (span % BLOCK_SPANS);
    const start = this.#inner.offset(blockStart * SPAN_MS);
    const end = this.#inner.offset((blockStart + BLOCK_SPANS) * SPAN_MS - 1);
    for (let inBlock = blockStart; inBlock < blockStart + BLOCK_SPANS; inBlock++) {
      page[inBlock - first] = start === end ? start : this.#spanOffset(inBlock);
    }
  }

  // The offset of a span when it is the same at both ends, else MIXED.
  #spanOffset(span: number): number {
    const start = this.#inner.offset(span * SPAN_MS);
    const end = this.#inner.offset((span + 1) * SPAN_MS - 1);
    return start === end ? start : MIXED;
  }

  #page(pageNumber: number, slot: number): Float64Array {
    let page = this.#pages.get(pageNumber);
    if (page === undefined) {
      if (this.#pages.size >= MAX_CACHED_PAGES) this.#pages.clear();
      page = new Float64Array(PAGE_SPANS).fill(UNKNOWN);
      this.#pages.set(pageNumber, page);
    }
    this.#recentPageNumbers[slot] = pageNumber;
    this.#recentPages[slot] = page;
    return page;
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
