import type { LoggerOptions } from 'pino';
import type { Config } from './config.js';

/** Readable lines for a developer at a terminal, JSON lines for anything that collects logs. */
export function loggerOptions(config: Pick<Config, 'NODE_ENV' | 'LOG_LEVEL'>): LoggerOptions {
  if (config.NODE_ENV === 'development') {
    return {
      level: config.LOG_LEVEL,
      transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } },
    };
  }
  return { level: config.LOG_LEVEL };
}
