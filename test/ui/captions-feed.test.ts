import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addCaptions,
  CAPTION_MAX_CHARS,
  CAPTION_MAX_LINES,
  captionTail,
  emptyCaptions,
  type CaptionSegment,
} from '@/components/call/engagement-state';
import { believeCaptionFrom, CAPTION_REDRAW_MS, readCaptionStream } from '@/components/call/captions-feed';

// The captions overlay's input is untrusted (issue 46 items 5–6): whom it believes, and the bounds
// of what it keeps whatever arrives (components/call/captions-feed.ts, engagement-state.ts).

async function* deltas(parts: string[], failAfter?: number) {
  for (const [i, part] of parts.entries()) {
    if (i === failAfter) throw new Error('stream cut');
    yield part;
  }
}

describe('whose captions are believed', () => {
  it('only the captions agent the server named, or the server itself, and nobody while captions are off', () => {
    expect(believeCaptionFrom('captions-AD_1', 'captions-AD_1')).toBe(true);
    expect(believeCaptionFrom('', 'captions-AD_1')).toBe(true);
    expect(believeCaptionFrom(undefined, 'captions-AD_1')).toBe(true);
    expect(believeCaptionFrom('p_mallory', 'captions-AD_1')).toBe(false);
    expect(believeCaptionFrom('captions-AD_2', 'captions-AD_1')).toBe(false);
    expect(believeCaptionFrom('captions-AD_1', null)).toBe(false);
    expect(believeCaptionFrom('', null)).toBe(false);
  });
});

describe('the caption buffer stays small whatever arrives', () => {
  const seg = (over: Partial<CaptionSegment>): CaptionSegment => ({
    id: 's1',
    speaker: 'Ada',
    text: 'hello',
    final: false,
    source: 'stream',
    ...over,
  });

  it('keeps the latest words of an over-long line, clips ids and names', () => {
    const long = `${'x'.repeat(10_000)} the latest words`;
    const b = addCaptions(emptyCaptions, [seg({ id: 'i'.repeat(5000), speaker: 'n'.repeat(5000), text: long })], 0);
    expect(b.lines).toHaveLength(1);
    expect(b.lines[0].text.length).toBeLessThanOrEqual(CAPTION_MAX_CHARS);
    expect(b.lines[0].text.endsWith('the latest words')).toBe(true);
    expect(b.lines[0].id.length).toBeLessThanOrEqual(128);
    expect(b.lines[0].speaker.length).toBeLessThanOrEqual(100);
  });

  it('never splits a surrogate pair when it cuts', () => {
    const text = '🎉'.repeat(CAPTION_MAX_CHARS);
    const tail = captionTail(text);
    expect(tail.length).toBeLessThanOrEqual(CAPTION_MAX_CHARS);
    expect(tail).toMatch(/^(🎉)+$/u);
  });

  it('holds its bounds for any sequence of updates (property)', () => {
    const segment = fc.record({
      id: fc.oneof(fc.constantFrom('a', 'b', 'c'), fc.string({ maxLength: 300 })),
      speaker: fc.string({ maxLength: 300 }),
      text: fc.oneof(fc.string({ maxLength: 50 }), fc.string({ minLength: 400, maxLength: 3000 })),
      final: fc.boolean(),
      source: fc.constantFrom('stream' as const, 'event' as const),
    });
    fc.assert(
      fc.property(fc.array(fc.array(segment, { maxLength: 40 }), { maxLength: 30 }), (updates) => {
        let b = emptyCaptions;
        for (const [i, update] of updates.entries()) b = addCaptions(b, update, i);
        expect(b.lines.length).toBeLessThanOrEqual(CAPTION_MAX_LINES);
        for (const line of b.lines) {
          expect(line.text.length).toBeLessThanOrEqual(CAPTION_MAX_CHARS);
          expect(line.text.length).toBeGreaterThan(0);
        }
      }),
    );
  });
});

describe('reading one transcription stream', () => {
  it('joins the deltas as they come (spaces kept) and returns the whole line', async () => {
    let clock = 0;
    const shown: string[] = [];
    const text = await readCaptionStream(deltas(['hello ', 'there ', 'friend']), (t) => shown.push(t), {
      now: () => (clock += CAPTION_REDRAW_MS),
    });
    expect(text).toBe('hello there friend');
    expect(shown).toEqual(['hello ', 'hello there ', 'hello there friend']);
  });

  it('keeps only the latest characters of a flood, and redraws at most every CAPTION_REDRAW_MS', async () => {
    const chunk = 'y'.repeat(15_000);
    const shown: string[] = [];
    const text = await readCaptionStream(deltas([...Array(200).fill(chunk), 'end']), (t) => shown.push(t), {
      now: () => 0,
    });
    expect(text.length).toBe(CAPTION_MAX_CHARS);
    expect(text.endsWith('end')).toBe(true);
    expect(shown).toHaveLength(1);
    expect(shown[0].length).toBe(CAPTION_MAX_CHARS);
  });

  it('keeps what arrived when the stream fails (e.g. over the decompressed-size cap)', async () => {
    expect(await readCaptionStream(deltas(['one ', 'two ', 'three'], 2), () => undefined)).toBe('one two ');
  });
});
