/**
 * The transcript formats as players and editors read them: WebVTT (cue times, voice spans, text
 * that cannot break out of its cue), SRT, plain text; and the format an Accept header asks for.
 */
import { describe, expect, it } from 'vitest';
import { dialogueLines, formatFromAccept, toPlainText, toSrt, toWebVtt } from '@/lib/domain/transcripts-formats';

const segments = [
  { start: 3661.5, end: 3663.25, text: 'second', speaker: 'Bob' },
  { start: 0.5, end: 2, text: 'first <b>&</b> --> x', speaker: 'Ada <Admin>' },
  { start: 5, end: 5, text: 'an instant', speaker: null },
  { start: 6, end: 7, text: '   ', speaker: 'Ada' },
  { start: 8, end: 9, text: 'two\n\nlines', speaker: 'Bob' },
];

describe('transcript formats', () => {
  it('WebVTT: cues in time order, end after start, speakers as voice spans, markup escaped', () => {
    expect(toWebVtt(segments)).toBe(
      [
        'WEBVTT',
        '',
        '1',
        '00:00:00.500 --> 00:00:02.000',
        '<v Ada &lt;Admin&gt;>first &lt;b&gt;&amp;&lt;/b&gt; -&gt; x</v>',
        '',
        '2',
        '00:00:05.000 --> 00:00:05.001',
        'an instant',
        '',
        '3',
        '00:00:08.000 --> 00:00:09.000',
        '<v Bob>two lines</v>',
        '',
        '4',
        '01:01:01.500 --> 01:01:03.250',
        '<v Bob>second</v>',
        '',
      ].join('\n'),
    );
  });

  it('SRT: numbered cues, comma before the milliseconds, "Name: text"', () => {
    expect(toSrt(segments)).toBe(
      [
        '1',
        '00:00:00,500 --> 00:00:02,000',
        'Ada <Admin>: first <b>&</b> -> x',
        '',
        '2',
        '00:00:05,000 --> 00:00:05,001',
        'an instant',
        '',
        '3',
        '00:00:08,000 --> 00:00:09,000',
        'Bob: two lines',
        '',
        '4',
        '01:01:01,500 --> 01:01:03,250',
        'Bob: second',
        '',
      ].join('\n'),
    );
  });

  it('text: a line per segment with its time; the model is sent turns without times', () => {
    expect(toPlainText(segments)).toBe(
      '[00:00:00] Ada <Admin>: first <b>&</b> -> x\n[00:00:05] an instant\n[00:00:08] Bob: two lines\n[01:01:01] Bob: second\n',
    );
    expect(
      dialogueLines([
        { start: 0, end: 1, text: 'hello', speaker: 'Ada' },
        { start: 1, end: 2, text: 'again', speaker: 'Ada' },
        { start: 2, end: 3, text: 'hi', speaker: 'Bob' },
      ]),
    ).toEqual(['Ada: hello again', 'Bob: hi']);
  });

  it('the Accept header: by preference; anything else is JSON', () => {
    expect(formatFromAccept('text/vtt')).toBe('vtt');
    expect(formatFromAccept('application/x-subrip')).toBe('srt');
    expect(formatFromAccept('text/plain;q=0.5, text/vtt;q=0.9')).toBe('vtt');
    expect(formatFromAccept('text/vtt;q=0, text/plain')).toBe('txt');
    expect(formatFromAccept('*/*')).toBe('json');
    expect(formatFromAccept(null)).toBe('json');
    expect(formatFromAccept('image/png')).toBe('json');
  });
});
