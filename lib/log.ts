import pino from 'pino';

/**
 * Paths redacted from every log line. Keys, tokens and secrets must never reach logs;
 * test/log-redaction.test.ts proves each one.
 */
export const REDACT_PATHS = [
  'apiKey',
  'plainTextKey',
  'key',
  'secret',
  'webhookSecret',
  'token',
  'callerToken',
  'agentToken',
  'streamKey',
  'password',
  'passwordHash',
  'authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-provider-key"]',
  'headers.cookie',
  '*.apiKey',
  '*.plainTextKey',
  '*.secret',
  '*.webhookSecret',
  '*.token',
  '*.streamKey',
  '*.password',
  '*.authorization',
];

export function createLogger(level = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream) {
  return pino(
    {
      level,
      base: { service: 'convene' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

export const log = createLogger();
