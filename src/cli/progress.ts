import type { PageProgress } from '../core/client.js';
import type { FullRangeProgress } from '../core/full-range.js';
import type { IngestProgress } from '../server/ingest/index.js';

/** What a progress line shows. */
export interface ProgressState {
  /** Units done and in all (chunks, files); `total` unknown for open-ended work (pages). */
  readonly done: number;
  readonly total?: number;
  /** Name of the units counted by done/total. */
  readonly unit: string;
  /** Items so far (bars, rows), for the count and the rate. */
  readonly items?: number;
  /** Name of the items. */
  readonly itemUnit?: string;
}

const BAR_WIDTH = 24;
/** Redraws at most this often (ms): a terminal redrawn on every chunk of a fast local fetch flickers. */
const REDRAW_MS = 80;

/**
 * A one-line progress display on a terminal: bar, counts, rate and ETA, redrawn in place with `\r`.
 * Given no stream (standard error is not a terminal, or `--quiet`) it draws nothing.
 */
export class Progress {
  readonly #started = performance.now();
  #last = 0;
  #state: ProgressState | undefined;
  #drawn = false;
  #finished = false;

  constructor(
    readonly label: string,
    readonly stream: NodeJS.WritableStream | undefined,
  ) {}

  /** Records the new state and redraws when due. */
  update(state: ProgressState): void {
    if (this.#finished) return;
    this.#state = state;
    const now = performance.now();
    if (now - this.#last < REDRAW_MS && state.done !== state.total) return;
    this.#last = now;
    this.#draw(now);
  }

  /** Records a full-range fetch's progress: chunks done of all, bars so far. */
  fullRange(p: FullRangeProgress): void {
    this.update({
      done: p.chunksDone,
      total: p.chunksTotal,
      unit: 'chunks',
      items: p.bars,
      itemUnit: 'bars',
    });
  }

  /** Records a paged fetch's progress (`onPage`): pages so far (their number is open), items so far. */
  pages(p: PageProgress): void {
    this.update({ done: p.pages, unit: 'pages', items: p.items, itemUnit: 'items' });
  }

  /** Records an ingest's progress (`onProgress`): files done of all, rows so far. */
  ingest(p: IngestProgress): void {
    this.update({ done: p.filesDone, total: p.filesTotal, unit: 'files', items: p.rows, itemUnit: 'rows' });
  }

  /** Draws the final state and ends the line; later calls do nothing. */
  done(): void {
    if (!this.stream || !this.#drawn || this.#finished) return;
    this.#finished = true;
    this.#draw(performance.now());
    this.stream.write('\n');
  }

  #draw(now: number): void {
    const s = this.#state;
    if (!this.stream || !s) return;
    this.#drawn = true;
    this.stream.write(`\r\x1b[2K${formatProgress(this.label, s, (now - this.#started) / 1000)}`);
  }
}

/** The text of a progress line (no control characters), e.g. `bars [#####-----] 3/9 chunks …`. */
export function formatProgress(label: string, s: ProgressState, elapsedSeconds: number): string {
  const parts = [label];
  if (s.total !== undefined && s.total > 0) {
    const filled = Math.round((Math.min(s.done, s.total) / s.total) * BAR_WIDTH);
    parts.push(`[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`, `${s.done}/${s.total} ${s.unit}`);
  } else parts.push(`${s.done} ${s.unit}`);
  const items = s.items ?? s.done;
  const itemUnit = s.itemUnit ?? s.unit;
  if (s.items !== undefined) parts.push(`${s.items.toLocaleString('en-US')} ${itemUnit}`);
  if (elapsedSeconds > 0) {
    parts.push(`${Math.round(items / elapsedSeconds).toLocaleString('en-US')} ${itemUnit}/s`);
  }
  if (s.total !== undefined && s.done > 0 && s.done < s.total) {
    parts.push(`ETA ${formatSeconds((elapsedSeconds / s.done) * (s.total - s.done))}`);
  } else if (s.total !== undefined && s.done >= s.total) {
    parts.push(`in ${formatSeconds(elapsedSeconds)}`);
  }
  return parts.join('  ');
}

function formatSeconds(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  if (seconds < 120) return `${Math.round(seconds)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
}
