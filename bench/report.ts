/** The report of `npm run bench`: bench/reports/<timestamp>.md (git-ignored), printed too. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DURATION, latestSoak, root } from './harness';

/** One part's section: its markdown (or how to write it when the report is), and a chart (an SVG) to show after it. */
export interface Section {
  markdown: string | (() => string);
  chart?: { title: string; svg: string };
}

/** Writes the report of these sections (in order), the latest soak table after them; its path. */
export function writeReport(sections: Section[], { embeddedDatabase }: { embeddedDatabase: boolean }) {
  mkdirSync(path.join(root, 'bench/reports'), { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const soak = latestSoak();
  const lines = [
    `# Convene benchmark — ${new Date().toISOString()}`,
    '',
    `Production build (server/main.ts), PostgreSQL (${embeddedDatabase ? 'embedded' : 'machine'}), ${DURATION} s per endpoint and concurrency, autocannon from the runner process. Request logging at warn. ` +
      'Compare ratios within one report, not absolute numbers across reports: the machine may be shared.',
    '',
  ];
  sections.forEach((section, i) => {
    lines.push(typeof section.markdown === 'string' ? section.markdown : section.markdown());
    if (!section.chart) return;
    const name = `${stamp}${i ? `-${i}` : ''}.svg`;
    writeFileSync(path.join(root, 'bench/reports', name), section.chart.svg);
    lines.push(`![${section.chart.title}](${name})`, '');
  });
  if (soak) lines.push('## Soak and fault run (latest `npm run soak`)', '', soak, '');
  const report = lines.join('\n');
  const file = path.join(root, 'bench/reports', `${stamp}.md`);
  writeFileSync(file, report);
  console.log(report);
  console.log(`report: ${path.relative(root, file)}`);
  return file;
}
