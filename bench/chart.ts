/** A horizontal bar chart as a standalone SVG, for the benchmark report (no dependencies, no browser). */
export interface Bar {
  label: string;
  value: number;
  /** Bars of one group share a colour. */
  group: string;
}

const COLOURS = ['#2563eb', '#9ca3af', '#16a34a', '#d97706', '#7c3aed'];
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function barChartSvg(title: string, unit: string, bars: Bar[]): string {
  const groups = [...new Set(bars.map((b) => b.group))];
  const labelWidth = 230;
  const plotWidth = 460;
  const rowHeight = 22;
  const top = 40;
  const height = top + bars.length * rowHeight + 20 + groups.length * 18;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const rows = bars.map((b, i) => {
    const y = top + i * rowHeight;
    const w = Math.max(1, Math.round((b.value / max) * plotWidth));
    const colour = COLOURS[groups.indexOf(b.group) % COLOURS.length];
    return [
      `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${escape(b.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 3}" width="${w}" height="${rowHeight - 6}" fill="${colour}"/>`,
      `<text x="${labelWidth + w + 6}" y="${y + 15}">${b.value} ${escape(unit)}</text>`,
    ].join('');
  });
  const legendTop = top + bars.length * rowHeight + 14;
  const legend = groups.map(
    (g, i) =>
      `<rect x="${labelWidth}" y="${legendTop + i * 18}" width="12" height="12" fill="${COLOURS[i % COLOURS.length]}"/><text x="${labelWidth + 18}" y="${legendTop + i * 18 + 11}">${escape(g)}</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + plotWidth + 110}" height="${height}" font-family="sans-serif" font-size="12" fill="#111827">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="10" y="22" font-size="15" font-weight="bold">${escape(title)}</text>`,
    ...rows,
    ...legend,
    '</svg>',
    '',
  ].join('\n');
}
