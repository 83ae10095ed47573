/**
 * Convene's development media server, as a library: `startDevMediaServer()` runs it in this
 * process (what `npm start` and the tests do). `main.ts` runs it as a program of its own.
 */
export { startDevMediaServer, type DevMediaServer } from './server';
