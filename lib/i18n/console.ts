import { count } from '@/lib/i18n/plural';

/**
 * The console's texts that count things. The console speaks English (the call speaks four
 * languages: en.ts and its translations); counts go through the plural rules all the same, so
 * "1 day" and "2 days" come from one place and a translation would only add its forms.
 */
export const consoleText = {
  days: (n: number) => count(n, { one: 'day', other: 'days' }),
  participantMinutes: (n: number, days: number) =>
    `${count(n, { one: 'participant-minute', other: 'participant-minutes' })} in the last ${consoleText.days(days)}.`,
  apiRequests: (n: number, days: number) =>
    `${count(n, { one: 'API request', other: 'API requests' })} in the last ${consoleText.days(days)}.`,
  sessions: (n: number, days: number) =>
    `${count(n, { one: 'room session', other: 'room sessions' })} started in the last ${consoleText.days(days)}.`,
  webhookRate: (days: number, latest: number) =>
    `Success rate on ${consoleText.days(days)} with finished deliveries; latest ${latest}%.`,
  people: (n: number) => count(n, { one: 'person', other: 'people' }),
  ratings: (n: number, average: string) => `${average} out of 5 from ${count(n, { one: 'rating', other: 'ratings' })}`,
};
