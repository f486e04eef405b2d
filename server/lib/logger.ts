// The server's logger options. Development (NODE_ENV=development, the default of `npm start`) prints
// readable lines through pino-pretty (a development dependency, in a worker thread); production and tests
// keep one JSON object per line, for log collectors. Without pino-pretty installed (a production install)
// development falls back to JSON too. Secrets never reach a log: cookies and the XSRF header are redacted.
import { createRequire } from 'node:module';
import type { LoggerOptions } from 'pino';

const require = createRequire(import.meta.url);

export function hasPinoPretty(): boolean {
  try {
    require.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

export function loggerOptions(
  config: { logLevel: string; nodeEnv: string },
  isPrettyAvailable = hasPinoPretty(),
): LoggerOptions {
  const base: LoggerOptions = {
    level: config.logLevel,
    redact: ['req.headers.cookie', 'req.headers["x-xsrf-token"]'],
  };
  if (config.nodeEnv !== 'development' || !isPrettyAvailable) return base;
  return {
    ...base,
    transport: {
      target: 'pino-pretty',
      options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: false },
    },
  };
}
