export * from './server-entry.js';
export * from './server-process.js';
export * from './chromium.js';
export * from './test-limits.js';
export * from './private-services.js';
export * from './deep-endgame.js';
