// The daily net premium as bars, drawn by uPlot on a canvas. Loaded on demand (React.lazy in
// DailyNetFigure): uPlot and its CSS stay out of the first load, which the login page pays for.
// The canvas says nothing to a screen reader; the figure's caption and table say it all.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dayToUnixSeconds, formatDay } from '../../components/calendar';
import { formatCents } from '../../format';
import type { DailyNet } from './queries';

/** Below this width the chart is on a phone: less tall, so the page keeps its figures in view. */
const NARROW = 560;
const heightFor = (width: number) => (width < NARROW ? 220 : 280);
const HALF_DAY_SECONDS = 43_200;

/**
 * Tick steps of the money axis, in cents: whole cents only (1, 2, 5 × 10^n), so every label is an
 * exact amount formatCents can write.
 */
const CENT_STEPS = Array.from({ length: 12 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat();

/** The canvas cannot read CSS variables: the colours are styles.css's, read when the chart is made. */
function themeColour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function options(width: number, font: string): uPlot.Options {
  const accent = themeColour('--accent');
  const muted = themeColour('--muted');
  const grid = themeColour('--border');
  const axisFont = `12px ${font}`;
  const measure = document.createElement('canvas').getContext('2d');
  if (measure !== null) measure.font = axisFont;
  return {
    width,
    height: heightFor(width),
    // Days are UTC dates: the time axis writes them in UTC, not shifted into the browser's zone.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'UTC'),
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    legend: { show: true, live: true },
    scales: {
      // Half a day either side: the first and last days' bars are drawn whole.
      x: { time: true, range: (_plot, min, max) => [min - HALF_DAY_SECONDS, max + HALF_DAY_SECONDS] },
      // Always from zero (or below it, for a day of net credits), and a dollar high when all is flat.
      y: { range: (_plot, min, max) => uPlot.rangeNum(Math.min(0, min), Math.max(100, max), 0.1, true) },
    },
    axes: [
      { stroke: muted, font: axisFont, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } },
      {
        stroke: muted,
        font: axisFont,
        incrs: CENT_STEPS,
        values: (_plot, splits) => splits.map((cents) => formatCents(Math.round(cents))),
        // Wide enough for the longest label ("$1,250.00"), however large the amounts.
        size: (_plot, values) => {
          const longest = Math.max(0, ...(values ?? []).map((label) => measure?.measureText(label).width ?? label.length * 8));
          return Math.ceil(longest) + 18;
        },
        grid: { stroke: grid, width: 1 },
        ticks: { stroke: grid, width: 1 },
      },
    ],
    series: [
      // The legend shows the day under the pointer; a dash while the pointer is elsewhere.
      { label: 'Day', value: (_plot, seconds) => (seconds === null ? '–' : formatDay(new Date(seconds * 1000).toISOString().slice(0, 10))) },
      {
        label: 'Net premium',
        stroke: accent,
        fill: accent,
        width: 0,
        paths: uPlot.paths.bars?.({ size: [0.7, 24] }),
        points: { show: false },
        value: (_plot, cents) => (cents === null ? '–' : formatCents(cents)),
      },
    ],
  };
}

interface DailyNetChartProps {
  days: readonly DailyNet[];
}

export default function DailyNetChart({ days }: DailyNetChartProps) {
  const frame = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = frame.current;
    if (element === null) return;
    const data: uPlot.AlignedData = [days.map((day) => dayToUnixSeconds(day.day)), days.map((day) => day.net_cents)];
    const plot = new uPlot(options(element.clientWidth, getComputedStyle(element).fontFamily), data, element);
    // The frame's width is the page's, never the chart's: resizing the chart cannot resize the frame.
    let width = element.clientWidth;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      plot.setSize({ width, height: heightFor(width) });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [days]);

  return <div className="ov-chart-frame" ref={frame} />;
}
