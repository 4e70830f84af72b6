/** A time-series chart (uPlot: small, fast, canvas), with its figures also as a table for screen readers. */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line of a chart. */
export interface Series {
  readonly label: string;
  readonly values: readonly number[];
  /** A CSS colour; the palette's next one when absent. */
  readonly color?: string;
}

const PALETTE = ['#2563eb', '#16a34a', '#dc2626', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777'];

/** Lines over time: `times` are the buckets' starts (ISO), one value per bucket in each series. */
export function TimeChart(props: { title: string; times: readonly string[]; series: readonly Series[]; height?: number }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return undefined;
    const data: uPlot.AlignedData = [props.times.map((t) => Date.parse(t) / 1000), ...props.series.map((s) => [...s.values])];
    const plot = new uPlot(
      {
        width: Math.max(240, element.clientWidth),
        height: props.height ?? 220,
        series: [{}, ...props.series.map((s, i) => ({ label: s.label, stroke: s.color ?? PALETTE[i % PALETTE.length], width: 2 }))],
        axes: [{}, { size: 48 }],
        scales: { y: { range: (_u, min, max) => [0, Math.max(1, max, min)] } },
        // Labels only: the values under the cursor would read '--' until the pointer is over the chart.
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
      },
      data,
      element,
    );
    // Follows the width of its card (the window resizes, the sidebar folds on a phone).
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(240, element.clientWidth), height: props.height ?? 220 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props.times, props.series, props.height]);
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <div ref={holder} role="img" aria-label={`${props.title}: ${props.series.map((s) => `${s.label} ${s.values.reduce((a, b) => a + b, 0)} in all`).join(', ')}`} />
    </figure>
  );
}
