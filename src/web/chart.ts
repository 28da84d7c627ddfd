/** Candlesticks with volume, drawn by TradingView's lightweight-charts, times in the market's zone. */
import {
  CandlestickSeries,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  TickMarkType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Bar } from './bars.js';
import { dateTimeIn, partsIn } from './times.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const UP = '#26a69a';
const DOWN = '#ef5350';

/** A chart in `container` whose axis and crosshair labels read in `zone`. */
export class CandleChart {
  private readonly chart: IChartApi;
  private readonly candles: ISeriesApi<'Candlestick'>;
  private readonly volume: ISeriesApi<'Histogram'>;
  private zone = 'America/New_York';

  constructor(container: HTMLElement) {
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    this.chart = createChart(container, {
      autoSize: true,
      layout: {
        background: { color: dark ? '#14171c' : '#fbfbfd' },
        textColor: dark ? '#e6e8ee' : '#1d2430',
      },
      grid: {
        vertLines: { color: dark ? '#23272f' : '#eceef3' },
        horzLines: { color: dark ? '#23272f' : '#eceef3' },
      },
      localization: { timeFormatter: (t: Time) => dateTimeIn((t as number) * 1000, this.zone).slice(0, 16) },
      timeScale: {
        timeVisible: true,
        secondsVisible: false,
        tickMarkFormatter: (t: Time, type: TickMarkType) => this.tick(t as number, type),
      },
    });
    this.candles = this.chart.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      wickUpColor: UP,
      wickDownColor: DOWN,
      borderVisible: false,
    });
    this.volume = this.chart.addSeries(HistogramSeries, {
      priceFormat: { type: 'volume' },
      priceScaleId: '',
    });
    // Volume in the lowest fifth, under the candles.
    this.volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    this.candles.priceScale().applyOptions({ scaleMargins: { top: 0.05, bottom: 0.25 } });
  }

  /** An axis label: year, month, day or time of day, in the chart's zone. */
  private tick(seconds: number, type: TickMarkType): string {
    const p = partsIn(seconds * 1000, this.zone);
    switch (type) {
      case TickMarkType.Year:
        return p.year!;
      case TickMarkType.Month:
        return MONTHS[Number(p.month) - 1]!;
      case TickMarkType.DayOfMonth:
        return String(Number(p.day));
      case TickMarkType.TimeWithSeconds:
        return `${p.hour}:${p.minute}:${p.second}`;
      default:
        return `${p.hour}:${p.minute}`;
    }
  }

  /** Replaces the bars (in time order) and fits them in view. */
  setBars(bars: readonly Bar[], zone: string): void {
    this.zone = zone;
    this.candles.setData(bars.map((b) => ({ ...b, time: b.time as UTCTimestamp })));
    this.volume.setData(bars.map((b) => this.volumeBar(b)));
    this.chart.timeScale().fitContent();
  }

  /** Adds a bar, or replaces the last one when it has the same time (a live view). */
  update(bar: Bar, zone: string): void {
    this.zone = zone;
    this.candles.update({ ...bar, time: bar.time as UTCTimestamp });
    this.volume.update(this.volumeBar(bar));
  }

  private volumeBar(b: Bar) {
    return {
      time: b.time as UTCTimestamp,
      value: b.volume,
      color: b.close >= b.open ? `${UP}80` : `${DOWN}80`,
    };
  }

  /** The bars in view, as logical indexes (fractional at the edges); zoom and pan change it. */
  visibleRange(): { from: number; to: number } | null {
    return this.chart.timeScale().getVisibleLogicalRange();
  }

  /** The crosshair's label of a time (Unix seconds), by the formatter the chart was given. */
  timeLabel(seconds: number): string {
    return this.chart.options().localization.timeFormatter?.(seconds as UTCTimestamp) ?? '';
  }

  /** The bars the chart holds, read back from its series (for tests and the page's caption). */
  bars(): Bar[] {
    const volumes = new Map(
      this.volume.data().map((v) => [v.time as number, (v as { value: number }).value]),
    );
    return this.candles.data().map((d) => {
      const c = d as { time: number; open: number; high: number; low: number; close: number };
      return {
        time: c.time,
        open: c.open,
        high: c.high,
        low: c.low,
        close: c.close,
        volume: volumes.get(c.time) ?? 0,
      };
    });
  }
}
