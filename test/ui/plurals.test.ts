import { describe, expect, it } from 'vitest';
import { count } from '@/lib/i18n/plural';
import { consoleText } from '@/lib/i18n/console';
import { formatElapsed } from '@/components/call/useMeetingClock';

describe('counts in words', () => {
  it('takes the noun form the number needs, in the language’s own rules', () => {
    expect(count(1, { one: 'day', other: 'days' })).toBe('1 day');
    expect(count(0, { one: 'day', other: 'days' })).toBe('0 days');
    expect(count(2, { one: 'day', other: 'days' })).toBe('2 days');
    expect(count(1200, { one: 'day', other: 'days' })).toBe('1,200 days');
    expect(count(1200, { one: 'Tag', other: 'Tage' }, 'de')).toBe('1.200 Tage');
    expect(count(1, { one: 'jour', other: 'jours' }, 'fr')).toBe('1 jour');
    expect(count(0, { one: 'jour', other: 'jours' }, 'fr')).toBe('0 jour'); // French counts 0 as one
  });

  it('the console never says "1 days" or "1 room sessions"', () => {
    expect(consoleText.sessions(1, 1)).toBe('1 room session started in the last 1 day.');
    expect(consoleText.sessions(3, 14)).toBe('3 room sessions started in the last 14 days.');
    expect(consoleText.webhookRate(1, 100)).toBe('Success rate on 1 day with finished deliveries; latest 100%.');
    expect(consoleText.participantMinutes(1, 14)).toBe('1 participant-minute in the last 14 days.');
    expect(consoleText.apiRequests(1, 14)).toBe('1 API request in the last 14 days.');
    expect(consoleText.ratings(1, '4.0')).toBe('4.0 out of 5 from 1 rating');
  });
});

describe('the meeting clock', () => {
  it('reads minutes and seconds, then hours', () => {
    expect(formatElapsed(7_000)).toBe('0:07');
    expect(formatElapsed(754_000)).toBe('12:34');
    expect(formatElapsed(3_723_000)).toBe('1:02:03');
    expect(formatElapsed(-5)).toBe('0:00');
  });
});
